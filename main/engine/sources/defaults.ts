/**
 * Built-in excludes: things nobody wants in a search index (VCS internals, dependencies, build
 * output, lock files, minified bundles, binaries). Applied in every folder before user rules.
 */

/** Directory names skipped wherever they appear. */
export const DEFAULT_EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  '.bzr',
  '_darcs',
  '.jj',
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.pnpm-store',
  '.yarn',
  'dist',
  'build',
  'out',
  'target',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.eggs',
  '.gradle',
  '.cache',
  'coverage',
  '.nyc_output',
  '.terraform',
  'Pods',
  'DerivedData',
]);

/** File names skipped wherever they appear (lock files are huge and carry no meaning to search). */
export const DEFAULT_EXCLUDED_FILES: ReadonlySet<string> = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'composer.lock',
  'Gemfile.lock',
  'go.sum',
  'flake.lock',
  'packages.lock.json',
  'mix.lock',
  'pubspec.lock',
  '.DS_Store',
  'Thumbs.db',
]);

/**
 * Credentials and key material: left out of every folder unless the folder says `include_secrets`.
 * Indexing a home folder must not put SSH keys, cloud tokens or `.env` files into an index that any
 * MCP client can search and read. Directory names are pruned wherever they appear.
 */
export const SECRET_DIRS: ReadonlySet<string> = new Set([
  '.ssh',
  '.gnupg',
  '.kube',
  '.aws',
  '.azure',
  '.docker',
  '.password-store',
  '.vault',
]);

/** Folder-relative directory suffixes that hold tokens (`~/.config/gcloud`, GitHub CLI's hosts file). */
const SECRET_DIR_SUFFIXES = ['.config/gcloud', '.config/gh', '.local/share/keyrings'];

/** File names that hold credentials wherever they appear. */
export const SECRET_FILES: ReadonlySet<string> = new Set([
  '.netrc',
  '_netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.htpasswd',
  '.vault-token',
  '.s3cfg',
  '.boto',
  '.dockercfg',
  '.terraformrc',
  'terraform.tfstate',
  'terraform.tfstate.backup',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  'identity',
]);

/** Extensions of key and keystore files. */
const SECRET_EXTENSIONS: ReadonlySet<string> = new Set([
  'pem',
  'key',
  'p12',
  'pfx',
  'jks',
  'keystore',
  'kdbx',
  'ppk',
  'tfstate',
]);

/** `.env`, `.env.local`, `prod.env`; the committed templates (`.env.example`…) are documentation and stay in. */
function isEnvFile(name: string): boolean {
  if (/^\.env(\..+)?$/i.test(name) || /\.env$/i.test(name))
    return !/\.(example|sample|template|dist|defaults?|md|markdown|txt)$/i.test(name);
  return false;
}

/**
 * The secret excludes as patterns a person reads (`.ssh/`, `*.pem`, `.env*`), from the same sets
 * isSecretPath applies: what the workbench and `cairn status --json` show a folder keeps out.
 */
export function secretExcludePatterns(): string[] {
  return [
    ...[...SECRET_DIRS, ...SECRET_DIR_SUFFIXES].map((d) => `${d}/`),
    ...SECRET_FILES,
    ...[...SECRET_EXTENSIONS].map((e) => `*.${e}`),
    '.env, .env.*, *.env (not .env.example, .sample, .template…)',
  ];
}

/** Whether a folder-relative path (forward slashes) is a secret file or a secret directory. */
export function isSecretPath(rel: string, isDir: boolean): boolean {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (isDir) return SECRET_DIRS.has(name) || SECRET_DIR_SUFFIXES.some((s) => rel === s || rel.endsWith(`/${s}`));
  return SECRET_FILES.has(name) || SECRET_EXTENSIONS.has(extensionOf(name)) || isEnvFile(name);
}

/** Extensions (lower case, no dot) of files that are binary by nature. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'bmp',
  'ico',
  'icns',
  'webp',
  'tif',
  'tiff',
  'psd',
  'heic',
  'avif',
  'raw',
  'mp3',
  'wav',
  'flac',
  'ogg',
  'm4a',
  'aac',
  'mp4',
  'mov',
  'avi',
  'mkv',
  'webm',
  'wmv',
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  'zst',
  '7z',
  'rar',
  'tar',
  'jar',
  'war',
  'ear',
  'dmg',
  'iso',
  'img',
  'exe',
  'dll',
  'so',
  'dylib',
  'a',
  'lib',
  'o',
  'obj',
  'class',
  'pyc',
  'pyo',
  'wasm',
  'node',
  'bin',
  'dat',
  'ttf',
  'otf',
  'woff',
  'woff2',
  'eot',
  'sqlite',
  'sqlite3',
  'db',
  'mdb',
  'parquet',
  'arrow',
  'lance',
  'npy',
  'npz',
  'pkl',
  'onnx',
  'pt',
  'safetensors',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'doc',
  'odt',
  'ods',
  'odp',
  'key',
  'numbers',
  'pages',
  'epub',
]);

/** Binary formats we extract text from: exempt from the NUL sniff. */
export const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set(['pdf', 'docx']);

/** Minified bundles and source maps: one enormous line each, useless as search results. */
export function isMinifiedName(name: string): boolean {
  return (
    /\.min\.(js|mjs|cjs|css)$/i.test(name) || /\.(js|mjs|css)\.map$/i.test(name) || /[.-]bundle\.min\./i.test(name)
  );
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Bytes sniffed for a NUL to tell binary from text (what git and ripgrep do). */
export const SNIFF_BYTES = 8192;

export function looksBinary(head: Uint8Array): boolean {
  // UTF-16 text is full of NULs; its byte order mark says it is text (decoded as such).
  if (utf16Bom(head)) return false;
  return head.indexOf(0) !== -1;
}

/** The encoding a UTF-16 byte order mark names, if the bytes start with one. */
export function utf16Bom(head: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}
