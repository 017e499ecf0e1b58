/**
 * The shipped layouts, made for a test in a temporary folder (never the repo's own dist/):
 * `npm run build` output in a copy of the sources, and the file set electron-builder.yml packs
 * into app.asar, selected from that build with the globs the file lists.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import picomatch from 'picomatch';
import { load } from 'js-yaml';
import { REPO } from './cli.js';

const SOURCES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'main', 'preload', 'renderer', 'bin'];

function run(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(process.execPath, [cmd, ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

/** A copy of the sources with `npm run build`'s two steps run in it; node_modules is linked. */
export async function buildCopy(): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-built-'));
  for (const name of SOURCES) {
    await cp(join(REPO, name), join(root, name), {
      recursive: true,
      filter: (src) => !/[\\/](node_modules|dist)([\\/]|$)/.test(relative(REPO, src)),
    });
  }
  await symlink(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  const pkg = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { scripts: { build: string } };
  // The build script itself, so a change to it is what gets tested.
  if (pkg.scripts.build !== 'tsc -p tsconfig.build.json && vite build --config renderer/vite.config.ts') {
    throw new Error(`package.json's build script changed (${pkg.scripts.build}): update test/helpers/built-layout.ts`);
  }
  run(join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), ['-p', 'tsconfig.build.json'], root);
  run(
    join(REPO, 'node_modules', 'vite', 'bin', 'vite.js'),
    ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'],
    root,
  );
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

async function walk(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.name === 'node_modules') continue;
    if (e.isDirectory()) out.push(...(await walk(full, base)));
    else if (e.isFile()) out.push(relative(base, full).split('\\').join('/'));
  }
  return out;
}

/** electron-builder's `files`: includes, then `!` excludes, matched against paths from the app root. */
export async function packedFiles(builtRoot: string): Promise<string[]> {
  const config = load(await readFile(join(REPO, 'electron-builder.yml'), 'utf8')) as { files: string[] };
  const include = config.files.filter((g) => !g.startsWith('!')).map((g) => picomatch(g, { dot: true }));
  const exclude = config.files.filter((g) => g.startsWith('!')).map((g) => picomatch(g.slice(1), { dot: true }));
  return (await walk(builtRoot)).filter((f) => include.some((m) => m(f)) && !exclude.some((m) => m(f)));
}

/**
 * The app's file set copied out of a build, with the production node_modules beside it (what
 * electron-builder adds). Run with plain Node: the Electron binary cannot run here.
 */
export async function packedCopy(
  builtRoot: string,
): Promise<{ root: string; files: string[]; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-packed-'));
  const files = await packedFiles(builtRoot);
  for (const f of files) {
    await mkdir(dirname(join(root, f)), { recursive: true });
    await cp(join(builtRoot, f), join(root, f));
  }
  await symlink(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  return { root, files, cleanup: () => rm(root, { recursive: true, force: true }) };
}
