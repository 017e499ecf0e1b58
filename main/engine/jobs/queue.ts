import { CairnError } from '../errors.js';
import { Job, JobCancelled } from './job.js';
import type { JobKind } from '../../common/status.js';

export type JobRunner = (job: Job) => Promise<void>;

/**
 * How much of a folder a job covers. Applying the watcher's pending paths covers those paths; a
 * rescan walks the whole folder (so it also covers every pending path); a rebuild re-parses every
 * file (so it covers a rescan).
 */
export type JobScope = 'paths' | 'rescan' | 'rebuild';
const SCOPE_RANK: Record<JobScope, number> = { paths: 0, rescan: 1, rebuild: 2 };

/** The scope that covers both: merging two intents never drops the larger one. */
export function widerScope(a: JobScope, b: JobScope): JobScope {
  return SCOPE_RANK[a] >= SCOPE_RANK[b] ? a : b;
}

interface Pending {
  job: Job;
  run: JobRunner;
  scope: JobScope;
  hidden?: boolean;
}

/**
 * Runs indexing jobs one at a time (the index has one writer; the embedding pool already uses
 * every core). A new job for a folder that already has one queued is merged into it, keeping the
 * union of both intents: the queued job then runs the runner of the wider scope (a rescan asked
 * for while a watcher update waits is a rescan, never only "apply these paths"). Finished jobs are
 * kept for a while so status can show how they ended.
 */
export class JobQueue {
  private readonly jobs: Job[] = [];
  private readonly pending: Pending[] = [];
  private running: Job | null = null;
  private idleWaiters: (() => void)[] = [];
  private pausedAll = false;

  constructor(private readonly keepFinished = 50) {}

  submit(
    kind: JobKind,
    folder: string,
    run: JobRunner,
    scope: JobScope = kind === 'rebuild' ? 'rebuild' : 'rescan',
  ): Job {
    const queued = this.pending.find((p) => !p.hidden && p.job.folder === folder && !p.job.isCancelled);
    if (queued) {
      if (SCOPE_RANK[scope] > SCOPE_RANK[queued.scope]) {
        queued.scope = scope;
        queued.run = run;
        queued.job.kind = kind;
      }
      return queued.job;
    }
    const job = new Job(kind, folder);
    if (this.pausedAll) job.pause();
    this.jobs.push(job);
    this.pending.push({ job, run, scope });
    this.trim();
    void this.pump();
    return job;
  }

  /**
   * Runs work between jobs, never beside one (index maintenance: a compaction racing a write only
   * ends in a commit conflict). Not listed among the jobs.
   */
  exclusive(kind: JobKind, folder: string, run: JobRunner): void {
    if (this.pending.some((p) => p.hidden && p.job.folder === folder)) return;
    this.pending.push({ job: new Job(kind, folder), run, scope: 'paths', hidden: true });
    void this.pump();
  }

  /**
   * Runs work between jobs now or after the queued ones, and resolves when it has run: for callers
   * that must know (index maintenance asked for directly), never beside a job or another such run.
   */
  runExclusive(kind: JobKind, folder: string, run: JobRunner): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const job = new Job(kind, folder);
      this.pending.push({ job, run, scope: 'paths', hidden: true });
      void job
        .ended()
        .then(() =>
          job.state === 'done'
            ? resolve()
            : reject(
                job.error ? new CairnError(job.error.code, job.error.message) : new Error(`maintenance ${job.state}`),
              ),
        );
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    const next = this.pending.shift();
    if (!next) {
      for (const w of this.idleWaiters.splice(0)) w();
      return;
    }
    const { job, run } = next;
    this.running = job;
    try {
      job.start();
      await job.checkpoint();
      await run(job);
      job.finish('done');
    } catch (err) {
      if (err instanceof JobCancelled || job.isCancelled) job.finish('cancelled');
      else job.finish('failed', err);
    } finally {
      this.running = null;
      void this.pump();
    }
  }

  list(): Job[] {
    return [...this.jobs];
  }

  get(id: string): Job | undefined {
    return this.jobs.find((j) => j.id === id);
  }

  active(folder: string): Job | undefined {
    return this.jobs.find(
      (j) => j.folder === folder && (j.state === 'running' || j.state === 'queued' || j.state === 'paused'),
    );
  }

  action(id: string, action: 'pause' | 'resume' | 'cancel'): Job {
    const job = this.get(id);
    if (!job) throw new CairnError('not_found', `no job ${id}`);
    if (job.finishedAt)
      throw new CairnError('conflict', `job ${id} has already ${job.state === 'done' ? 'finished' : job.state}`);
    if (action === 'pause') job.pause();
    else if (action === 'resume') job.resume();
    else {
      job.cancel();
      const i = this.pending.findIndex((p) => p.job === job);
      if (i >= 0) {
        this.pending.splice(i, 1);
        job.finish('cancelled');
      }
    }
    return job;
  }

  /** Pause or resume everything (the tray's pause indexing). */
  setPaused(paused: boolean): void {
    this.pausedAll = paused;
    for (const j of this.jobs) {
      if (j.finishedAt) continue;
      if (paused) j.pause();
      else j.resume();
    }
  }

  get paused(): boolean {
    return this.pausedAll;
  }

  idle(): Promise<void> {
    if (!this.running && this.pending.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  cancelAll(): void {
    for (const p of this.pending.splice(0)) p.job.finish('cancelled');
    this.running?.cancel();
  }

  private trim(): void {
    const finished = this.jobs.filter((j) => j.finishedAt);
    for (const j of finished.slice(0, Math.max(0, finished.length - this.keepFinished)))
      this.jobs.splice(this.jobs.indexOf(j), 1);
  }
}
