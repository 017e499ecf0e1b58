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
  ) {}

  /** Debounced: a burst of small updates leads to one compaction, after the queue drains. */
  schedule(delayMs = DEBOUNCE_MS): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.queue.exclusive('update', MAINTENANCE, () => this.run());
    }, delayMs);
    this.timer.unref();
  }

  /** Runs it now, between jobs (also what tests and benchmarks call before measuring). */
  runNow(): Promise<void> {
    return this.queue.runExclusive('update', MAINTENANCE, () => this.run());
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
