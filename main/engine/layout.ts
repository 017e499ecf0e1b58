/**
 * Where Cairn's own files are, in each layout it runs from. One owner for these paths: the
 * engine's modules sit at `main/engine/` of the package root in a checkout (run through tsx) and
 * at `dist/main/engine/` once built (`npm run build`, and what electron-builder packs into
 * app.asar). Everything else (the workbench, the `cairn` launcher) is found from that root.
 *
 *   checkout   <root>/main/engine/layout.ts        <root>/bin/cairn.mjs   <root>/renderer/dist
 *   built      <root>/dist/main/engine/layout.js   <root>/bin/cairn.mjs   <root>/renderer/dist
 *   packaged   <app.asar>/dist/main/engine/...     (no bin/: the app is the launcher)
 *
 * The packaged app cannot run a Node script (its runAsNode fuse is off), so the desktop shell
 * tells the engine how to launch it over stdio: `CAIRN_STDIO_LAUNCHER`, a JSON array such as
 * `["/opt/Cairn/cairn", "--mcp-stdio"]` (see main/app/main.ts).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineNodeFlags } from './kernel/young-generation.js';

export type LayoutKind = 'checkout' | 'built' | 'packaged';

export interface Layout {
  kind: LayoutKind;
  /** The package root: the folder holding package.json (app.asar when packaged). */
  root: string;
  /** The built workbench (index.html and assets), or null when it is not built. */
  rendererDir: string | null;
  /** `bin/cairn.mjs` when this layout has it (not in the packaged app). */
  bin: string | null;
  /** The compiled CLI entry the desktop shell runs (`dist/main/engine/cli/main.js`). */
  cliEntry: string;
}

export function layoutFor(engineDir: string, exists: (p: string) => boolean = existsSync): Layout {
  const mainDir = dirname(engineDir);
  const parent = dirname(mainDir);
  const compiled = basename(parent) === 'dist';
  const root = compiled ? dirname(parent) : parent;
  const renderer = join(root, 'renderer', 'dist');
  const bin = join(root, 'bin', 'cairn.mjs');
  const hasBin = exists(bin);
  return {
    kind: !compiled ? 'checkout' : hasBin ? 'built' : 'packaged',
    root,
    rendererDir: exists(join(renderer, 'index.html')) ? renderer : null,
    bin: hasBin ? bin : null,
    cliEntry: join(root, 'dist', 'main', 'engine', 'cli', 'main.js'),
  };
}

/** The layout this process runs from. */
export function currentLayout(): Layout {
  return layoutFor(dirname(fileURLToPath(import.meta.url)));
}

function launcherFromEnv(env: NodeJS.ProcessEnv): string[] | null {
  const raw = env.CAIRN_STDIO_LAUNCHER;
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((a) => typeof a === 'string' && a !== ''))
      return parsed as string[];
  } catch {
    // fall through: a malformed value is ignored rather than written into a client's config
  }
  return null;
}

/**
 * The command an MCP client runs to reach this Cairn over stdio: absolute paths only, because
 * clients such as Claude Desktop launch with a minimal PATH. From a checkout or a build, this
 * Node and this `bin/cairn.mjs`; in the desktop app, the app executable (CAIRN_STDIO_LAUNCHER).
 */
export function stdioCommand(
  layout: Layout = currentLayout(),
  env: NodeJS.ProcessEnv = process.env,
  node = process.execPath,
): string[] {
  const fromApp = launcherFromEnv(env);
  if (fromApp) return fromApp;
  if (layout.bin) return [node, layout.bin, 'mcp', '--stdio'];
  // A packaged engine without CAIRN_STDIO_LAUNCHER (started outside the app): the CLI entry
  // through this runtime is still absolute and exists.
  return [node, layout.cliEntry, 'mcp', '--stdio'];
}

/**
 * How `cairn mcp --stdio` starts an engine in the background when none runs: `cairn serve
 * --exclusive` (exits 5 rather than attach when another door won the race), or in the desktop
 * app the app itself in the background (CAIRN_BACKGROUND_LAUNCHER, set by main/app/main.ts),
 * whose supervisor gives its engine the same Node flags.
 */
export function backgroundEngineCommand(
  layout: Layout = currentLayout(),
  env: NodeJS.ProcessEnv = process.env,
  node = process.execPath,
): string[] {
  const app = launcherFromEnv({ CAIRN_STDIO_LAUNCHER: env.CAIRN_BACKGROUND_LAUNCHER });
  if (app) return app;
  return [node, ...engineNodeFlags(env), layout.bin ?? layout.cliEntry, 'serve', '--exclusive'];
}
