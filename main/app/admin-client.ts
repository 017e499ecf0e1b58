/**
 * The few admin calls the shell makes itself (tray pause/resume, the reveal-file check), over the
 * same loopback HTTP API the workbench uses. Plain fetch: no electron.
 */
import type { SetPausedRequest, SetPausedResponse } from '../common/admin.js';
import type { EngineStatus } from '../common/status.js';
import { answerErrorBody, parseAnswer } from '../common/errors.js';
import type { EngineAddress } from './channels.js';
import { revealablePath } from '../engine/sources/access.js';

async function call<T>(addr: EngineAddress, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(addr.baseUrl + path, {
    method,
    headers: { Authorization: `Bearer ${addr.adminToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = parseAnswer(await res.text());
  if (!res.ok) {
    const e = answerErrorBody(res.status, parsed, `${method} ${path}`);
    throw new Error(`${e.message} (${e.code})`);
  }
  return parsed as T;
}

export function engineStatus(addr: EngineAddress): Promise<EngineStatus> {
  return call<EngineStatus>(addr, 'GET', '/api/status');
}

/** The tray's "pause indexing": engine-wide, so jobs queued while paused wait too. */
export async function setIndexingPaused(addr: EngineAddress, paused: boolean): Promise<boolean> {
  const body: SetPausedRequest = { paused };
  return (await call<SetPausedResponse>(addr, 'POST', '/api/jobs/paused', body)).paused;
}

/**
 * The real path of `file` when it lies inside one of the indexed folders (so reveal cannot probe
 * the disk), else null: normalised and checked by the engine's file door (sources/access.ts).
 */
export async function revealableFile(addr: EngineAddress, file: string): Promise<string | null> {
  const status = await engineStatus(addr);
  return revealablePath(status.folders.map((f) => f.path), file);
}
