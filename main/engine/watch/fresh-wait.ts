import type { JobQueue } from '../jobs/queue.js';
import type { FolderChanges } from './changes.js';
import type { LiveUpdates } from './live.js';

export interface FreshWaitDeps {
  live(): LiveUpdates | null;
  queue: JobQueue;
  changes: FolderChanges;
  debounceMs(): number;
}

/** How often the wait looks again at the folders' jobs and pending changes. */
const POLL_MS = 25;

/**
 * `freshness: wait_for_fresh`: resolves once the folders have no change left to apply (or at the
 * deadline; the hits then say how fresh they are).
 */
export async function waitForFresh(deps: FreshWaitDeps, folders: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const live = deps.live();
  // Only the watcher brings changes nobody applied yet. It tells when every change made before
  // this call has been seen (and counted pending); a guessed grace period is left only for when
  // it cannot tell (no space for its sentinel file, an unsupported backend).
  if (live && !(await live.caughtUp(timeoutMs))) {
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(deps.debounceMs() + 50, deadline - Date.now()))));
  }
  // Changes are applied once their text is written: a job computing vectors no longer holds
  // the answer back (hits say how much the vector leg covers).
  const applying = (f: string) =>
    deps.queue.list().some((j) => j.folder === f && !j.finishedAt && j.info().progress.phase !== 'embedding');
  while (Date.now() < deadline) {
    const busy = folders.filter((f) => applying(f) || deps.changes.pendingCount(f) > 0);
    if (busy.length === 0) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
