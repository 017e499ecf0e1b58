import type { FolderSync } from '../folders/sync.js';
import type { IndexStore } from '../index/store.js';
import type { SkipLog } from '../ingest/skip-log.js';
import type { MaintenanceScheduler } from '../jobs/maintenance-scheduler.js';
import type { JobQueue } from '../jobs/queue.js';
import type { EngineLock } from '../lock.js';
import type { ModelService } from '../model/service.js';
import type { FolderChanges } from '../watch/changes.js';
import type { LiveUpdates } from '../watch/live.js';

/** How long the stop waits for the running job to reach a checkpoint, and for a model still loading. */
const CLOSE_WAIT_MS = 3000;

export interface ShutdownParts {
  sync: FolderSync;
  models: ModelService;
  maintenance: MaintenanceScheduler;
  changes: FolderChanges;
  live: LiveUpdates | null;
  queue: JobQueue;
  skipLog: SkipLog;
  store: IndexStore;
  lock: EngineLock | null;
}

/** The engine's stop, in order: nothing new starts, work ends or is left safe, what must persist is written, the lock goes last. */
export async function shutDown(p: ShutdownParts): Promise<void> {
  p.sync.close();
  await p.models.settle();
  p.maintenance.close();
  p.changes.close();
  await p.live?.close();
  p.queue.cancelAll();
  // The running job stops at its next checkpoint. The timer also keeps the process alive
  // meanwhile (parse and embedding workers are unref'd: awaiting only them, a stopping process
  // would exit with its lock still taken); a job that does not reach a checkpoint in time is
  // left as a kill would leave it, which every write is safe against.
  await within(p.queue.idle());
  // Changes seen and not applied are remembered for the next start (it begins stale, then rescans).
  await p.changes.saveMarker();
  await p.skipLog.flushed();
  // A model still loading (a hub download) must not hold the stop either.
  await within(p.models.close());
  await p.store.close();
  await p.lock?.release();
}

async function within(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
}
