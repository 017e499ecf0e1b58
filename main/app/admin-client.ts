/**
 * The few admin calls the shell makes itself (tray pause/resume, the reveal-file check), over the
 * same loopback HTTP API the workbench uses. Plain fetch: no electron.
 */
import type { EngineStatus } from '../common/status.js';
import type { EngineAddress } from './channels.js';

async function call<T>(addr: EngineAddress, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(addr.baseUrl + path, {
    method,
    headers: { Authorization: `Bearer ${addr.adminToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
  return (await res.json()) as T;
}

export function engineStatus(addr: EngineAddress): Promise<EngineStatus> {
  return call<EngineStatus>(addr, 'GET', '/api/status');
}

/** Pauses (or resumes) every job that can be: the tray's "pause indexing". */
export async function setIndexingPaused(addr: EngineAddress, paused: boolean): Promise<void> {
  const status = await engineStatus(addr);
  const targets = status.jobs.filter((j) => (paused ? j.state === 'running' || j.state === 'queued' : j.state === 'paused'));
  for (const j of targets) await call(addr, 'POST', '/api/jobs/action', { id: j.id, action: paused ? 'pause' : 'resume' });
}

/** Whether `file` lies inside one of the indexed folders (so reveal cannot probe the disk). */
export async function isInsideIndexedFolder(addr: EngineAddress, file: string): Promise<boolean> {
  const status = await engineStatus(addr);
  return status.folders.some((f) => file === f.path || file.startsWith(f.path.endsWith('/') || f.path.endsWith('\\') ? f.path : f.path + '/') || file.startsWith(f.path + '\\'));
}
