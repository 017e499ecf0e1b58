import type { JobQueue } from './queue.js';

/** The queue's name for maintenance work (never listed among the jobs). */
const MAINTENANCE = '*maintenance*';
const DEBOUNCE_MS = 2000;

/**
 * Index maintenance through the job queue: two passes, or one and a job's write, never overlap (a
 * compaction racing another ended a long run with "transaction file not found").
 */
export class MaintenanceScheduler {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly queue: JobQueue,
    private readonly run: () => Promise<void>,
    /**
     * How long a pass keeps the versions it replaced (for readers mid-query; the maintenance
     * option keepVersionsMs). A second pass this long after one deletes them; null: none.
     */
    private readonly keepVersionsMs: number | null = null,
  ) {}

  /** Debounced: a burst of small updates leads to one compaction, after the queue drains. */
  schedule(delayMs = DEBOUNCE_MS): void {
    this.arm(delayMs, true);
  }

  /** Runs it now, between jobs (also what tests and benchmarks call before measuring). */
  runNow(): Promise<void> {
    return this.queue.runExclusive('update', MAINTENANCE, () => this.pass(true));
  }

  private arm(delayMs: number, followUp: boolean): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.queue.exclusive('update', MAINTENANCE, () => this.pass(followUp));
    }, delayMs);
    this.timer.unref();
  }

  /**
   * A pass compacts and rewrites index segments, but what it replaced stays on disk for the keep
   * window: until the next write, the folder held the index two to four times over (80 MB for 41
   * MB of index after a 42k-chunk ingest). The follow-up pass, once the window has passed, deletes
   * it; it replaces nothing itself, so it schedules no other. A pass already pending follows up in
   * its own turn.
   */
  private async pass(followUp: boolean): Promise<void> {
    await this.run();
    if (followUp && this.keepVersionsMs !== null && !this.timer) this.arm(this.keepVersionsMs + DEBOUNCE_MS, false);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
