/**
 * The few admin calls the shell makes itself (tray pause/resume, the reveal-file check), through
 * the shared typed admin client (common/admin-client.ts) over the same loopback HTTP API the
 * workbench uses. No electron.
 */
import { adminClient, bearerCall } from '../common/admin-client.js';
import type { EngineStatus } from '../common/status.js';
import type { EngineAddress } from './channels.js';
import { revealablePath } from '../engine/sources/access.js';

function client(addr: EngineAddress) {
  return adminClient(
    bearerCall(addr.baseUrl, addr.adminToken, {
      fail: (_status, e) => new Error(`${e.message} (${e.code})`),
      unreachable: (err) => (err instanceof Error ? err : new Error(String(err))),
    }),
  );
}

export function engineStatus(addr: EngineAddress): Promise<EngineStatus> {
  return client(addr).engineStatus();
}

/** The tray's "pause indexing": engine-wide, so jobs queued while paused wait too. */
export async function setIndexingPaused(addr: EngineAddress, paused: boolean): Promise<boolean> {
  return (await client(addr).setPaused({ paused })).paused;
}

/**
 * The real path of `file` when it lies inside one of the indexed folders (so reveal cannot probe
 * the disk), else null: normalised and checked by the engine's file door (sources/access.ts).
 */
export async function revealableFile(addr: EngineAddress, file: string): Promise<string | null> {
  const status = await engineStatus(addr);
  return revealablePath(
    status.folders.map((f) => f.path),
    file,
  );
}
