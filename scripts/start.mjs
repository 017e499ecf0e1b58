#!/usr/bin/env node
// `npm start`: the desktop app where it can run, otherwise the same engine headless, serving the
// workbench to a browser on loopback.
// - Electron needs its binary (downloaded lazily on first launch; impossible on offline machines)
//   and a display (DISPLAY/WAYLAND_DISPLAY on Linux).
// - Headless: build the workbench if renderer/dist is missing or older than its sources, then run
//   `cairn serve` through tsx, forwarding its output: it prints the workbench address with the
//   admin token. Extra arguments are passed to `serve` (`npm start -- --port 0`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const extra = process.argv.slice(2);

function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile))
    return {
      ok: false,
      why: 'the Electron binary has not been downloaded (node_modules/electron/path.txt is missing; it cannot be fetched offline)',
    };
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? { ok: true, bin } : { ok: false, why: `the Electron binary is missing (${bin})` };
}

function display() {
  if (process.platform !== 'linux') return { ok: true };
  if (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return { ok: true };
  return { ok: false, why: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
}

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((n) => newest(join(path, n))));
}

function run(cmd, args, what) {
  console.log(`[start] ${what}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: false });
  if (r.status !== 0) {
    console.error(`[start] ${what} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status ?? 1);
  }
}

const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function buildRendererIfStale() {
  const built = newest(join(root, 'renderer', 'dist', 'index.html'));
  const sources = Math.max(
    newest(join(root, 'renderer', 'src')),
    newest(join(root, 'renderer', 'index.html')),
    newest(join(root, 'renderer', 'vite.config.ts')),
    newest(join(root, 'main', 'common')),
  );
  if (built && built >= sources) return console.log('[start] workbench build is up to date (renderer/dist).');
  run(
    process.execPath,
    [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'],
    built ? 'workbench sources changed, rebuilding' : 'building the workbench',
  );
}

/** Runs a child with our stdio and passes Ctrl-C / SIGTERM on, so the engine closes cleanly. */
function supervise(cmd, args, env) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const el = electronBinary();
const disp = display();
if (el.ok && disp.ok) {
  buildRendererIfStale();
  run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], 'compiling main, engine and preload');
  supervise(el.bin, [root, ...extra], process.env);
} else {
  const reasons = [el, disp].filter((x) => !x.ok).map((x) => x.why);
  console.log(`[start] Running headless (engine + workbench in your browser) because ${reasons.join(' and ')}.`);
  buildRendererIfStale();
  const cli = join(root, 'main', 'engine', 'cli', 'main.ts');
  const compiled = join(root, 'dist', 'main', 'engine', 'cli', 'main.js');
  // The Node flags every spawn of the engine gets (main/engine/kernel/young-generation.ts owns the
  // why and the value), unless NODE_OPTIONS already chose that setting.
  const flags = (process.env.NODE_OPTIONS ?? '').includes('--max-semi-space-size') ? [] : ['--max-semi-space-size=4'];
  let args;
  if (existsSync(cli)) args = [...flags, '--import', 'tsx', cli, 'serve', ...extra];
  else if (existsSync(compiled)) args = [...flags, compiled, 'serve', ...extra];
  else {
    console.error('[start] The engine CLI (main/engine/cli/main.ts) is not there yet; nothing to serve.');
    process.exit(1);
  }
  console.log('[start] Starting the engine; open the "Workbench:" address it prints (it carries the admin token).');
  // The malloc settings every spawn of the engine gets (main/engine/kernel/malloc-env.ts owns the why
  // and the values; this script is plain JavaScript and cannot import it).
  supervise(process.execPath, args, {
    ...process.env,
    LANCEDB_LOG: process.env.LANCEDB_LOG ?? 'error',
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ || '131072',
    MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ || '131072',
    MALLOC_TOP_PAD_: process.env.MALLOC_TOP_PAD_ || '1048576',
  });
}
