import type { ContractGuard } from '../index/contract-guard.js';
import type { DamageWatch } from '../index/damage.js';
import type { IndexStore } from '../index/store.js';
import type { Indexer } from '../ingest/indexer.js';
import type { Job } from '../jobs/job.js';
import type { MaintenanceScheduler } from '../jobs/maintenance-scheduler.js';
import type { JobQueue } from '../jobs/queue.js';
import type { FolderChanges } from '../watch/changes.js';
import type { FolderRegistry } from './registry.js';
import type { FolderStates } from './states.js';
import { rebuildRefused } from '../index/integrity.js';

export interface SyncDeps {
  queue: JobQueue;
  store: IndexStore;
  indexer: Indexer;
  registry: FolderRegistry;
  changes: FolderChanges;
  states: FolderStates;
  contract: ContractGuard;
  damage: DamageWatch;
  maintenance: MaintenanceScheduler;
  /** Damage found is repaired in place by this engine (serving): a rebuild defers to that. */
  repairsInPlace: boolean;
}

/**
 * Indexing work on a folder as jobs: full syncs (create, update, rebuild) and watcher updates. Each
 * takes the folder's changes it covers and hands them back if it does not complete; each keeps the
 * folder's index health true whatever happens, and names damage it runs into.
 */
export class FolderSync {
  private closed = false;

  constructor(private readonly d: SyncDeps) {}

  /** A full sync of a configured folder: walk, compare, re-parse what changed, prune what is gone. */
  index(folder: string, kind: 'create' | 'update' | 'rebuild'): Job {
    return this.d.queue.submit(
      kind,
      folder,
      (j) => this.runSync(folder, j, kind === 'rebuild'),
      kind === 'rebuild' ? 'rebuild' : 'rescan',
    );
  }

  /** Applies a folder's due changes (FolderChanges calls this); null when it is no longer indexed. */
  applyChanges(folder: string): Job | null {
    if (this.closed || !this.d.registry.has(folder)) return null;
    // A rescan handed back by a failed job is still due: it covers these paths too.
    if (this.d.changes.hasRescan(folder))
      return this.d.queue.submit('update', folder, (j) => this.runSync(folder, j, false), 'rescan');
    return this.d.queue.submit(
      'update',
      folder,
      async (job) => {
        const spec = this.d.registry.spec(folder);
        const paths = this.d.changes.take(folder);
        if (paths.length === 0) return;
        try {
          await this.guard(folder, () => this.d.indexer.applyPaths(spec, paths, job));
        } catch (err) {
          this.handBack(folder, paths, false, job);
          throw err;
        }
        this.d.maintenance.schedule();
      },
      'paths',
    );
  }

  /** Cancels the folder's job, if any (the folder is being removed). */
  cancel(folder: string): void {
    const active = this.d.queue.active(folder);
    if (active) this.d.queue.action(active.id, 'cancel');
  }

  /** Removes the folder's rows once no job writes, and what was pending for them. */
  async drop(folder: string): Promise<void> {
    await this.d.queue.idle().catch(() => undefined);
    await this.d.store.removeFolder(folder);
    this.d.states.forget(folder);
    this.d.changes.clearIntents(folder);
  }

  private async runSync(folder: string, job: Job, rebuild: boolean): Promise<void> {
    const spec = this.d.registry.spec(folder);
    // A rebuild never merges into damage: damage refuses it before anything is written (a
    // serving engine's repair, started by finding it, moves the index aside and builds anew).
    if (rebuild) {
      const damage = await this.d.damage.find();
      if (damage) throw rebuildRefused(damage, this.d.repairsInPlace);
    }
    const mismatch = this.d.contract.mismatch;
    if (rebuild && this.d.contract.check.embedding) await this.d.store.unmarkEmbedded(folder);
    // Changes seen before a full sync starts are covered by it; handed back if it does not complete.
    const taken = this.d.changes.take(folder, true);
    try {
      await this.guard(folder, () => this.d.indexer.sync(spec, job, rebuild));
    } catch (err) {
      this.handBack(folder, taken, true, job);
      throw err;
    }
    this.d.states.markSynced(folder);
    if (rebuild && mismatch) await this.d.contract.rebuilt(folder);
    this.d.maintenance.schedule();
  }

  /** A cancel is the person's (or the shutdown's) choice: the intents stay, no retry starts. */
  private handBack(folder: string, paths: string[], rescan: boolean, job: Job): void {
    this.d.changes.giveBack(folder, paths, rescan, !this.closed && !job.isCancelled);
  }

  /** Runs indexing work for a folder, keeping its index health true whatever happens. */
  private async guard(folder: string, work: () => Promise<void>): Promise<void> {
    try {
      if (this.d.damage.current) throw this.d.damage.current;
      await work();
      this.d.states.setFailure(folder, null);
    } catch (raw) {
      const err = await this.d.damage.name(raw);
      if (!(err instanceof Error && err.message === 'job cancelled'))
        this.d.states.setFailure(folder, err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  close(): void {
    this.closed = true;
  }
}
