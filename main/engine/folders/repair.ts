import type { IndexRepair } from '../../common/status.js';
import { CairnError } from '../errors.js';
import type { ContractGuard } from '../index/contract-guard.js';
import type { DamageWatch } from '../index/damage.js';
import type { IndexStore } from '../index/store.js';
import type { Job } from '../jobs/job.js';
import type { JobQueue } from '../jobs/queue.js';
import type { FolderStates } from './states.js';

export interface RepairDeps {
  queue: JobQueue;
  store: IndexStore;
  damage: DamageWatch;
  contract: ContractGuard;
  states: FolderStates;
  /** Every configured folder. */
  folders(): string[];
  /** A full sync of the folder into the new index. */
  index(folder: string): Job;
}

/** The queue's name for the swap (never listed among the jobs). */
const REPAIR = '*repair*';

/**
 * In-place repair by a serving engine. Damage found while serving (a storage error on a search or
 * a write, read-checked by DamageWatch) is answered with a typed `index_corrupt` naming the table;
 * then, between jobs, the whole index is moved aside and a new one opened in its place, and every
 * folder is indexed into it in the background. Nothing is ever merged into the damage. Status
 * shows the repair (`index_repair`) and each folder reads `indexing` until its job is done.
 */
export class RepairInPlace {
  status: IndexRepair | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly d: RepairDeps) {}

  /** Starts a repair for `damage` unless one is under way (one repair covers any damage found meanwhile). */
  start(damage: CairnError): void {
    if (this.running) return;
    this.running = this.run(damage).finally(() => (this.running = null));
  }

  /** Resolves when the repair under way (if any) has finished, its rebuild jobs included. */
  async settled(): Promise<void> {
    await this.running;
  }

  private async run(damage: CairnError): Promise<void> {
    const status: IndexRepair = {
      state: 'moving_aside',
      damage: damage.toBody(),
      moved_to: null,
      started_at: new Date().toISOString(),
      finished_at: null,
      error: null,
    };
    this.status = status;
    const end = (state: 'done' | 'failed', error?: unknown) => {
      status.state = state;
      status.finished_at = new Date().toISOString();
      if (error !== undefined)
        status.error = (
          error instanceof CairnError ? error : new CairnError('internal', (error as Error)?.message ?? String(error))
        ).toBody();
    };
    try {
      // Jobs queued before the swap fail fast on the damage (FolderSync.guard) and hand their
      // paths back; the full syncs below cover them. Not cancelled: the job that found the damage
      // must end with it, so that whoever asked for it (a `cairn index`) is told.
      await this.d.queue.runExclusive('rebuild', REPAIR, async () => {
        status.moved_to = await this.d.store.moveAside();
        for (const f of this.d.folders()) {
          await this.d.store.recount(f);
          this.d.states.setFailure(f, null);
        }
        this.d.damage.clear();
        // The contract file went aside with the index: the new, empty index takes the configured one.
        await this.d.contract.load();
        status.state = 'rebuilding';
      });
    } catch (err) {
      end('failed', err);
      return;
    }
    const jobs = this.d.folders().map((f) => this.d.index(f));
    await Promise.all(jobs.map((j) => j.ended()));
    const failed = jobs.find((j) => j.state !== 'done');
    if (failed) end('failed', new CairnError('internal', `rebuilding ${failed.folder} ended ${failed.state}`));
    else end('done');
  }
}
