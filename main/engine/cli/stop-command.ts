/**
 * `cairn stop`: stops the engine that owns the data folder, whoever started it (`cairn serve`,
 * or a stdio client that started one in the background). The engine is asked to stop with
 * SIGTERM, the stop every engine handles (jobs end at their next checkpoint, nothing half
 * written, the lock released), and the command waits until the lock is free. Nothing running is
 * not an error: the folder is already free. A `cairn serve` that had attached to the stopped
 * engine takes over (that is what it waits for), and a stdio client still connected starts one
 * again on its next request; either way the command says who serves now.
 */
import { dataPaths } from '../config/paths.js';
import { CairnError } from '../errors.js';
import { alive, readLock, type LockInfo } from '../lock.js';

export interface StopOutcome {
  /** The pid that was stopped, or null when no engine ran. */
  stopped: number | null;
  /** An engine that holds the folder after the stop (an attached `cairn serve` that took over). */
  now_serving: { pid: number; url?: string } | null;
}

const POLL_MS = 100;
/** An attached `cairn serve` looks at the lock every 250 ms: this is long enough to see it take over. */
const TAKEOVER_GRACE_MS = 1000;

/** Waits until the engine has released the folder and its process has exited; then, briefly, for a successor. */
async function waitWhile(file: string, pid: number, timeoutMs: number): Promise<LockInfo | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await readLock(file);
    // A successor (an attached serve) may hold the folder while the stopped process still exits.
    if (info && info.pid !== pid && !alive(pid)) return info;
    if (!info && !alive(pid)) break;
    if (Date.now() > deadline) {
      throw new CairnError(
        'timeout',
        `The Cairn engine (pid ${pid}) did not stop within ${Math.round(timeoutMs / 1000)} s.`,
        {
          remedy: `It may be finishing a write; wait and run cairn stop again, or end it with: kill -9 ${pid} (the index recovers at the next start).`,
          details: { pid },
        },
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const grace = Date.now() + TAKEOVER_GRACE_MS;
  while (Date.now() < grace) {
    const next = await readLock(file);
    if (next) return next;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return null;
}

export async function stopEngine(home: string, opts: { timeoutMs?: number } = {}): Promise<StopOutcome> {
  const file = dataPaths(home).lock;
  const owner = await readLock(file);
  if (!owner) return { stopped: null, now_serving: null };
  try {
    process.kill(owner.pid, 'SIGTERM');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Gone between the read and the signal: stopped all the same.
    if (code !== 'ESRCH') {
      throw new CairnError(
        'forbidden',
        `Cannot stop the Cairn engine (pid ${owner.pid}): ${code === 'EPERM' ? 'it runs as another user' : (err as Error).message}.`,
        {
          remedy: 'Stop it as the user that started it.',
          details: { pid: owner.pid },
        },
      );
    }
  }
  const after = await waitWhile(file, owner.pid, opts.timeoutMs ?? 30_000);
  return {
    stopped: owner.pid,
    now_serving: after ? { pid: after.pid, ...(after.url ? { url: after.url } : {}) } : null,
  };
}

export function describeStop(home: string, o: StopOutcome): string {
  if (o.stopped === null) return `No Cairn engine is running for ${home}.`;
  const line = `Stopped the Cairn engine for ${home} (pid ${o.stopped}).`;
  if (!o.now_serving) return line;
  return `${line}\nAnother engine took the folder over (pid ${o.now_serving.pid}${o.now_serving.url ? `, at ${o.now_serving.url}` : ''}): a cairn serve that was attached, or a stdio client that was still connected.`;
}
