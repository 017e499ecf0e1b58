/**
 * Built-in excludes: things nobody wants in a search index (VCS internals, dependencies, build
 * output, lock files, minified bundles, binaries). Applied in every folder before user rules.
 */

/** Directory names skipped wherever they appear. */
export const DEFAULT_EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  '.git', '.hg', '.svn', '.bzr', '_darcs', '.jj',
  'node_modules', 'bower_components', 'jspm_packages', '.pnpm-store', '.yarn',
  'dist', 'build', 'out', 'target', '.next', '.nuxt', '.svelte-kit', '.turbo', '.parcel-cache',
  '__pycache__', '.venv', 'venv', '.tox', '.mypy_cache', '.pytest_cache', '.ruff_cache', '.eggs',
  '.gradle', '.cache', 'coverage', '.nyc_output', '.terraform', 'Pods', 'DerivedData',
]);

/** File names skipped wherever they appear (lock files are huge and carry no meaning to search). */
export const DEFAULT_EXCLUDED_FILES: ReadonlySet<string> = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock',
  'Cargo.lock', 'poetry.lock', 'Pipfile.lock', 'uv.lock', 'composer.lock', 'Gemfile.lock',
  'go.sum', 'flake.lock', 'packages.lock.json', 'mix.lock', 'pubspec.lock', '.DS_Store', 'Thumbs.db',
]);

/** Extensions (lower case, no dot) of files that are binary by nature. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'bmp', 'ico', 'icns', 'webp', 'tif', 'tiff', 'psd', 'heic', 'avif', 'raw',
  'mp3', 'wav', 'flac', 'ogg', 'm4a', 'aac', 'mp4', 'mov', 'avi', 'mkv', 'webm', 'wmv',
  'zip', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'tar', 'jar', 'war', 'ear', 'dmg', 'iso', 'img',
  'exe', 'dll', 'so', 'dylib', 'a', 'lib', 'o', 'obj', 'class', 'pyc', 'pyo', 'wasm', 'node', 'bin', 'dat',
  'ttf', 'otf', 'woff', 'woff2', 'eot',
  'sqlite', 'sqlite3', 'db', 'mdb', 'parquet', 'arrow', 'lance', 'npy', 'npz', 'pkl', 'onnx', 'pt', 'safetensors',
  'xls', 'xlsx', 'ppt', 'pptx', 'doc', 'odt', 'ods', 'odp', 'key', 'numbers', 'pages', 'epub',
]);

/** Binary formats we extract text from: exempt from the NUL sniff. */
export const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set(['pdf', 'docx']);

/** Minified bundles and source maps: one enormous line each, useless as search results. */
export function isMinifiedName(name: string): boolean {
  return /\.min\.(js|mjs|cjs|css)$/i.test(name) || /\.(js|mjs|css)\.map$/i.test(name) || /[.-]bundle\.min\./i.test(name);
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Bytes sniffed for a NUL to tell binary from text (what git and ripgrep do). */
export const SNIFF_BYTES = 8192;

export function looksBinary(head: Uint8Array): boolean {
  return head.indexOf(0) !== -1;
}
