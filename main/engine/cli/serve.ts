import { CairnError } from '../errors.js';
import { takeDataFolder, type DataFolder } from '../data-folder.js';
import { dataPaths } from '../config/paths.js';
import { readLock } from '../lock.js';
import { runningEngine } from './engine-door.js';
import { StartingEngine } from '../starting-engine.js';
import { apiKeyStoreFor } from '../http/api-key-store.js';
import { startHttpServer } from '../http/server.js';
import { adminTokenFor, adminTokenFromEnv, workbenchAddress } from '../http/launch.js';
import { currentLayout, stdioCommand } from '../layout.js';
import { EXIT } from './exit-codes.js';

/**
 * The token goes to a terminal only; piped or logged output (the desktop shell, a service
 * manager, engine.log) gets the file that holds it instead (0600, read it there).
 */
function workbenchLine(url: string, token: string, tokenFile: string): string {
  return process.stdout.isTTY
    ? `Workbench: ${workbenchAddress(url, token)}`
    : `Workbench: ${url}/ (open it with #token=<the admin token in ${tokenFile}>)`;
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new CairnError('invalid_argument', `--port must be an integer from 0 to 65535, got ${value}`);
  return n;
}

/**
 * `cairn serve`: the long-running engine. It holds the data folder's lock, keeps folders fresh,
 * serves MCP, the admin API and the workbench, and shuts down cleanly on SIGINT/SIGTERM: jobs stop
 * at their next checkpoint, so nothing is left half-written.
 *
 * It listens as soon as it holds the lock, before the index opens: an MCP client can list the
 * tools meanwhile, and anything that needs the index waits for it (see StartingEngine). An index
 * that then fails to open stops the server with that error, as it would have before listening.
 */
async function serveEngine(
  home: string,
  folder: DataFolder,
  signals: StopSignals,
  opts: { port?: number; host?: string },
): Promise<number> {
  const { port } = opts;
  const engine = new StartingEngine(folder, { home, serving: true });
  const layout = currentLayout();
  let server;
  let adminToken: string;
  try {
    adminToken = await adminTokenFor(folder.paths.adminToken, process.env);
    server = await startHttpServer(engine, {
      host: opts.host,
      port,
      adminToken,
      apiKeyStore: apiKeyStoreFor(home),
      rendererDir: layout.rendererDir ?? undefined,
      stdioCommand: stdioCommand(layout),
    });
  } catch (err) {
    await engine.close();
    signals.dispose();
    throw err;
  }
  const listening = server;
  let stopping = false;
  const stopped = new Promise<number>((resolve) => {
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${signal}: stopping (finishing the current write)…\n`);
      await listening.close().catch(() => undefined);
      await engine.close();
      signals.dispose();
      resolve(EXIT.ok);
    };
    signals.onStop((s) => void stop(s));
  });
  const mount = engine.settings.get<string>('mcp.mount_path');
  if (!stopping) await folder.lock?.update({ url: server.url, mcp: server.url + mount });
  process.stdout.write(
    [
      `Cairn engine serving ${engine.dataDir}`,
      `MCP: ${server.url}${mount}`,
      workbenchLine(server.url, adminToken, folder.paths.adminToken),
      layout.rendererDir ? '' : '(the workbench is not built: run npm run build)',
      'Press Ctrl+C to stop.',
      '',
    ]
      .filter((l, i, a) => l !== '' || i === a.length - 1)
      .join('\n'),
  );
  try {
    // A stop that came while the index was opening closes it; nothing is left to watch.
    await engine.openAndWatch();
  } catch (err) {
    if (!stopping) {
      stopping = true;
      await server.close().catch(() => undefined);
      await engine.close();
      throw err;
    }
  }
  return stopped;
}

/**
 * `cairn serve` where an engine already owns the data folder (the desktop app, another serve, or
 * one a stdio client started in the background): it does not fail, it attaches. It prints that
 * engine's addresses (the lines the desktop shell reads), waits, and takes over as the engine
 * when that one exits. Ctrl+C only detaches: the other engine keeps serving. `--exclusive`
 * exits 5 instead, for the background start a stdio client makes (another door won that race).
 */
export async function serve(
  home: string,
  opts: { port?: string; host?: string; exclusive?: boolean },
): Promise<number> {
  const port = parsePort(opts.port);
  // Refused before anything opens: a short CAIRN_ADMIN_TOKEN would be guessable.
  adminTokenFromEnv(process.env);
  // Handlers before the lock is taken: without them a SIGTERM between writing engine.lock and
  // serving kills the process outright and leaves the lock behind. A stop at any moment of
  // start-up is remembered and honoured at the next step, never ignored.
  const signals = stopSignals();
  let wake: () => void = () => undefined;
  // While attached, a stop only detaches (the other engine keeps serving).
  signals.onStop(() => wake());
  for (;;) {
    let folder: DataFolder;
    try {
      folder = await takeDataFolder(home);
    } catch (err) {
      if (opts.exclusive || !(err instanceof CairnError) || err.code !== 'engine_locked') {
        signals.dispose();
        throw err;
      }
      await attach(
        home,
        () => signals.signal !== null,
        (w) => (wake = w),
      );
      if (signals.signal !== null) {
        signals.dispose();
        return EXIT.ok;
      }
      continue;
    }
    return serveEngine(home, folder, signals, { port, host: opts.host });
  }
}

export interface StopSignals {
  readonly signal: string | null;
  onStop(fn: (signal: string) => void): void;
  dispose(): void;
}

/**
 * SIGINT/SIGTERM handlers installed at once; a signal before anyone listens is remembered, so a
 * stop during start-up is acted on by the next step of it.
 */
export function stopSignals(): StopSignals {
  let got: string | null = null;
  let listener: ((signal: string) => void) | null = null;
  const on = (signal: string) => {
    // Once only: `conf` (through when-exit) raises the signal again after its own handler, and a
    // stop already under way must not be cut short by that echo (close() is bounded anyway).
    if (got) return;
    got = signal;
    listener?.(signal);
  };
  const int = () => on('SIGINT');
  const term = () => on('SIGTERM');
  process.on('SIGINT', int);
  process.on('SIGTERM', term);
  return {
    get signal() {
      return got;
    },
    onStop(fn) {
      listener = fn;
      if (got) fn(got);
    },
    dispose() {
      process.off('SIGINT', int);
      process.off('SIGTERM', term);
    },
  };
}

/** Waits while another engine serves `home`; resolves when it is gone or on detach. */
async function attach(home: string, detached: () => boolean, onWake: (w: () => void) => void): Promise<void> {
  let announced: number | null = null;
  for (;;) {
    if (detached()) return;
    const info = await readLock(dataPaths(home).lock);
    if (!info) {
      if (announced !== null) process.stderr.write(`The engine (pid ${announced}) stopped; taking over.\n`);
      return;
    }
    const live = await runningEngine(home);
    if (live && announced !== live.pid) {
      announced = live.pid;
      process.stdout.write(
        [
          `Cairn engine already serving ${home} (pid ${live.pid}): attached to it`,
          `MCP: ${live.mcp}`,
          workbenchLine(live.url, live.token, dataPaths(home).adminToken),
          'Press Ctrl+C to detach (that engine keeps serving).',
          '',
        ].join('\n'),
      );
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 250);
      onWake(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}
