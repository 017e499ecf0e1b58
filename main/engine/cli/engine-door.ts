/**
 * One engine, any door: finds the engine that owns a data folder (its engine.lock names its
 * address), or starts one as its own background process, so that whoever comes first (the
 * desktop app, `cairn serve`, an MCP client launching `cairn mcp --stdio`) leaves the data folder
 * to one engine every other door then reaches. The engine started here outlives the stdio client
 * that started it: HTTP clients and later stdio clients keep using it, and the app or a later
 * `cairn serve` attaches to it (serve.ts).
 */
import { spawn } from 'node:child_process';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminClient, bearerCall } from '../../common/admin-client.js';
import { dataPaths } from '../config/paths.js';
import { SettingsStore } from '../config/settings-store.js';
import { CairnError } from '../errors.js';
import { backgroundEngineCommand, currentLayout } from '../layout.js';
import { readAdminToken } from '../http/launch.js';
import { withEngineMallocEnv } from '../kernel/malloc-env.js';
import { readLock, type LockInfo } from '../lock.js';
import { EXIT } from './exit-codes.js';

export interface RunningEngine {
  pid: number;
  /** Origin of the engine's HTTP server (admin API, workbench). */
  url: string;
  /** The MCP endpoint. */
  mcp: string;
  token: string;
}

export function engineLogPath(home: string): string {
  return join(home, 'logs', 'engine.log');
}

/** The lock names the address; the admin token is in its own 0600 file (never in the lock). */
async function running(home: string, info: LockInfo | null): Promise<RunningEngine | null> {
  if (!info?.url) return null;
  const token = await readAdminToken(dataPaths(home).adminToken);
  if (!token) return null;
  const mcp = info.mcp ?? info.url + new SettingsStore(home).get<string>('mcp.mount_path');
  return { pid: info.pid, url: info.url, mcp, token };
}

/** The engine serving `home` right now, or null (none, or one still starting). */
export async function runningEngine(home: string): Promise<RunningEngine | null> {
  return running(home, await readLock(dataPaths(home).lock));
}

async function logTail(home: string): Promise<string> {
  const text = await readFile(engineLogPath(home), 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-8).join('\n');
}

/** Background engines this process started, by data folder, until they exit: a second door in the same process must not start another. */
const startedHere = new Map<string, Promise<{ exited: Promise<number | null> }>>();

/**
 * Starts `cairn serve` for `home`, detached: its own process group, no tie to this process's
 * stdio (its output goes to logs/engine.log, mode 0600; the address lines there name the token file, not the token).
 */
function startBackgroundEngine(home: string): Promise<{ exited: Promise<number | null> }> {
  let started = startedHere.get(home);
  if (!started) {
    started = spawnBackgroundEngine(home);
    startedHere.set(home, started);
    const forget = () => {
      if (startedHere.get(home) === started) startedHere.delete(home);
    };
    started.then((c) => c.exited.then(forget), forget);
  }
  return started;
}

async function spawnBackgroundEngine(home: string): Promise<{ exited: Promise<number | null> }> {
  const log = engineLogPath(home);
  await mkdir(join(home, 'logs'), { recursive: true });
  const fh = await open(log, 'a', 0o600);
  await fh.write(`\n--- ${new Date().toISOString()} started by cairn mcp --stdio (pid ${process.pid})\n`);
  const [cmd, ...args] = backgroundEngineCommand(currentLayout());
  const child = spawn(cmd, args, {
    detached: true,
    stdio: ['ignore', fh.fd, fh.fd],
    env: withEngineMallocEnv({ ...process.env, CAIRN_HOME: home }),
    windowsHide: true,
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(-1));
  });
  child.unref();
  await fh.close();
  return { exited };
}

/**
 * The running engine for `home`, started in the background when none runs. Two doors racing to
 * start one are fine: the loser's `serve` finds the winner's lock and attaches, and both wait
 * here for the same lock to name its address.
 */
export async function findOrStartEngine(
  home: string,
  opts: { timeoutMs?: number; start?: boolean } = {},
): Promise<RunningEngine> {
  const lockFile = dataPaths(home).lock;
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  let child: { exited: Promise<number | null> } | null = null;
  let childExit: number | null | undefined;
  for (;;) {
    const info = await readLock(lockFile);
    const live = await running(home, info);
    if (live) return live;
    if (!info && !child && opts.start !== false) {
      child = await startBackgroundEngine(home);
      void child.exited.then((code) => (childExit = code));
    }
    if (!info && child && childExit !== undefined && childExit !== EXIT.locked) {
      throw new CairnError(
        'dependency_unavailable',
        `The Cairn engine for ${home} did not start (exit ${childExit}).`,
        {
          remedy: `See ${engineLogPath(home)}:\n${await logTail(home)}`,
        },
      );
    }
    if (!info && opts.start === false)
      throw new CairnError('dependency_unavailable', `No Cairn engine serves ${home}.`);
    if (Date.now() > deadline) {
      throw new CairnError(
        'dependency_unavailable',
        info
          ? `The Cairn engine (pid ${info.pid}) holds ${home} but does not say where it serves.`
          : `The Cairn engine for ${home} did not start in time.`,
        {
          remedy: `See ${engineLogPath(home)}`,
        },
      );
    }
    await sleep(100);
  }
}

/**
 * Makes sure an engine is on its way for `home` (one runs or starts, or this process started
 * one), without waiting for it to listen: what a stdio client that leaves right after its
 * handshake (a health check) needs, so that the engine it expects keeps serving afterwards.
 */
export async function ensureEngineStarting(home: string): Promise<void> {
  const started = startedHere.get(home);
  if (started) {
    await started;
    return;
  }
  if (await readLock(dataPaths(home).lock)) return;
  await startBackgroundEngine(home);
}

/** The MCP key, when the engine requires one: CAIRN_MCP_API_KEY, else asked of the engine with its admin token. */
export async function mcpKeyFor(engine: RunningEngine, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  if (env.CAIRN_MCP_API_KEY) return env.CAIRN_MCP_API_KEY;
  const refused = new Error('refused');
  const api = adminClient(
    bearerCall(engine.url, engine.token, { fail: () => refused, unreachable: (err) => err as Error }),
  );
  try {
    return (await api.apiKey({ reveal: true })).key ?? null;
  } catch (err) {
    if (err === refused) return null;
    throw err;
  }
}
