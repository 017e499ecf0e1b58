import type { JobQueue } from './queue.js';

/** The queue's name for maintenance work (never listed among the jobs). */
const MAINTENANCE = '*maintenance*';
const DEBOUNCE_MS = 2000;
/**
 * The longest a pass waits behind a stream of updates. Without it, edits arriving faster than the
 * debounce re-armed it for good: a soak editing every 500 ms ran no pass in 6 minutes, and as each
 * write's full-text fold replaced index files the session held open, the deleted files held open
 * grew to 400 (71 MB); new vectors also stayed out of the vector index and fragments piled up.
 * With it: one pass every 30 s (about 1 s each at 2k chunks), descriptors back down after each.
 */
const MAX_WAIT_MS = 30_000;

/**
 * Index maintenance through the job queue: two passes, or one and a job's write, never overlap (a
 * compaction racing another ended a long run with "transaction file not found").
 */
export class MaintenanceScheduler {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** When the oldest request no pass has taken yet must have its pass (ms since the epoch). */
  private dueBy: number | null = null;

  constructor(
    private readonly queue: JobQueue,
    private readonly run: () => Promise<void>,
    /**
     * How long a pass keeps the versions it replaced (for readers mid-query; the maintenance
     * option keepVersionsMs). A second pass this long after one deletes them; null: none.
     */
    private readonly keepVersionsMs: number | null = null,
    private readonly maxWaitMs = MAX_WAIT_MS,
  ) {}

  /**
   * Debounced: a burst of small updates leads to one compaction, after the queue drains; a burst
   * that never pauses gets one at least every `maxWaitMs`.
   */
  schedule(delayMs = DEBOUNCE_MS): void {
    const now = Date.now();
    this.dueBy ??= now + this.maxWaitMs;
    this.arm(Math.max(0, Math.min(delayMs, this.dueBy - now)), true);
  }

  /**
   * Runs it now, between jobs (also what tests and benchmarks call before measuring). It covers
   * every write a pending pass was armed for (it runs after the jobs queued so far), so that pass is
   * dropped: at 100k chunks it compacted the chunks table a second time (2.7 s), and a stop right
   * after cut it off mid-write.
   */
  runNow(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dueBy = null;
    return this.queue.runExclusive('update', MAINTENANCE, () => this.pass(true));
  }

  private arm(delayMs: number, followUp: boolean): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      // Requests from here on are after the pass has been queued: they wait for a pass of their own.
      if (followUp) this.dueBy = null;
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
