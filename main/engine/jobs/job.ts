import { randomUUID } from 'node:crypto';
import type { ErrorBody } from '../../common/errors.js';
import type { JobInfo, JobKind, JobPhase, JobProgress, JobState } from '../../common/status.js';
import { toErrorBody } from '../errors.js';
import { describeProgress } from '../../common/progress.js';

export class JobCancelled extends Error {
  constructor() {
    super('job cancelled');
  }
}

/**
 * One unit of indexing work with progress, pause/resume and cancel. The worker calls
 * `checkpoint()` between batches: that is where a pause waits and a cancel takes effect, so
 * neither ever interrupts a write half-way.
 */
export class Job {
  readonly id = randomUUID();
  readonly createdAt = new Date();
  state: JobState = 'queued';
  errors = 0;
  error?: ErrorBody;
  finishedAt: Date | null = null;
  /** The most walked files a scan held at once: bounded by the scan batch, whatever the folder's size. */
  scanPeak = 0;
  private progress: JobProgress = {
    phase: 'queued',
    files_done: 0,
    files_total: 0,
    chunks_done: 0,
    chunks_total: 0,
    throughput: 0,
    eta_seconds: null,
  };
  private resumeWaiters: (() => void)[] = [];
  private cancelled = false;
  private rate: { t: number; chunks: number; files: number }[] = [];
  private started = false;

  /** Widened when a larger intent is merged into the queued job (an update becomes a rebuild). */
  constructor(
    public kind: JobKind,
    readonly folder: string,
  ) {}

  phase(phase: JobPhase, totals: Partial<Pick<JobProgress, 'files_total' | 'chunks_total'>> = {}): void {
    // New totals start a new count (the embedding pass after parsing); a bare phase change does not.
    const reset = totals.files_total !== undefined || totals.chunks_total !== undefined;
    this.progress = { ...this.progress, ...totals, phase, ...(reset ? { files_done: 0, chunks_done: 0 } : {}) };
    delete this.progress.current_file;
    this.rate = [];
  }

  /** The file being worked on now (relative to the folder), or none. */
  working(rel: string | undefined): void {
    if (rel === undefined) delete this.progress.current_file;
    else this.progress.current_file = rel;
  }

  /** The queue starts it: a job that waited (queued, maybe paused and resumed) begins here. */
  start(): void {
    this.started = true;
    if (this.state !== 'paused') this.state = 'running';
    if (this.progress.phase === 'queued') this.progress.phase = 'scanning';
  }

  advance(files: number, chunks: number): void {
    const p = this.progress;
    p.files_done += files;
    p.chunks_done += chunks;
    const now = performance.now();
    this.rate.push({ t: now, chunks: p.chunks_done, files: p.files_done });
    // Rates over the last ~30 s of this phase: long enough that the ETA does not wander with
    // each batch, short enough to follow a change of pace (the model warming up, a big file).
    while (this.rate.length > 2 && now - this.rate[0].t > 30_000) this.rate.shift();
    const first = this.rate[0];
    const dt = (now - first.t) / 1000;
    p.throughput = dt > 0 ? Math.round((p.chunks_done - first.chunks) / dt) : 0;
    // The ETA is in the phase's own unit: chunks while embedding, files while the text is written;
    // unknown while a scan is still finding files (its total is still growing).
    const embedding = p.phase === 'embedding';
    const left = embedding ? p.chunks_total - p.chunks_done : p.files_total - p.files_done;
    const rate = dt > 0 ? (embedding ? p.chunks_done - first.chunks : p.files_done - first.files) / dt : 0;
    p.eta_seconds =
      p.phase === 'scanning' ? null : left <= 0 ? 0 : rate > 0 && dt >= 2 ? Math.round(left / rate) : null;
  }

  /** A streaming scan learns its total as it walks: the count grows batch by batch, never resets. */
  addFiles(files: number): void {
    this.progress.files_total += files;
  }

  async checkpoint(): Promise<void> {
    if (this.cancelled) throw new JobCancelled();
    if (this.state === 'paused') await new Promise<void>((r) => this.resumeWaiters.push(r));
    if (this.cancelled) throw new JobCancelled();
  }

  pause(): void {
    if (this.state === 'running' || this.state === 'queued') this.state = 'paused';
  }

  resume(): void {
    if (this.state !== 'paused') return;
    // A job the queue has not reached yet goes back to waiting, not to "running / scanning 0/0".
    this.state = this.started ? 'running' : 'queued';
    for (const r of this.resumeWaiters.splice(0)) r();
  }

  cancel(): void {
    this.cancelled = true;
    if (this.state === 'queued' || this.state === 'paused') {
      for (const r of this.resumeWaiters.splice(0)) r();
    }
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /** Resolves with how the job ended. */
  ended(): Promise<JobState> {
    if (this.finishedAt) return Promise.resolve(this.state);
    return new Promise((r) => this.endWaiters.push(r));
  }

  private endWaiters: ((s: JobState) => void)[] = [];

  finish(state: 'done' | 'failed' | 'cancelled', err?: unknown): void {
    if (this.finishedAt) return;
    this.state = state;
    this.finishedAt = new Date();
    delete this.progress.current_file;
    if (state === 'done') this.progress = { ...this.progress, phase: 'done', eta_seconds: 0 };
    if (err !== undefined) this.error = toErrorBody(err);
    for (const w of this.endWaiters.splice(0)) w(state);
  }

  info(): JobInfo {
    return {
      id: this.id,
      kind: this.kind,
      folder: this.folder,
      state: this.state,
      progress: { ...this.progress, summary: describeProgress(this.state, this.progress) },
      errors: this.errors,
      ...(this.error ? { error: this.error } : {}),
      created_at: this.createdAt.toISOString(),
      finished_at: this.finishedAt?.toISOString() ?? null,
    };
  }
}
