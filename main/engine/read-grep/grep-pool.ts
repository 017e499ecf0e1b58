/**
 * Worker threads for grep. A grep is bound by per-file syscalls (open, fstat, read, close) and then
 * the regex: the main thread walks and keeps the order, batches of files are read and searched on
 * the workers. ALL matching of a user's pattern happens here, never on the main thread: a pattern
 * that backtracks without end (`^(\w+\s?)*$` over prose) stalls one worker, not the engine. Every
 * batch carries its call's deadline; past it the worker is terminated (V8 interrupts a running
 * regex), replaced on next use, and the call fails with `timeout`. Batches of other calls that the
 * killed worker held are sent again once. Workers start on first use and stop when idle.
 *
 * Priority: the workers run at the engine's own priority, and are lowered to nice 5 (for the rest
 * of their life) once a batch has taken longer than DEMOTE_MS. An ordinary batch answers in a few
 * ms; started at nice 5, every batch on a loaded machine waited behind each nice-0 thread there
 * (CFS gives nice 5 a third of nice 0's share), which made grep 2.5-3x ripgrep at load 7-11 where
 * nice 0 measured 1.1x. A pattern that spins still yields to the main thread after DEMOTE_MS.
 */
import { availableParallelism, setPriority } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { CairnError } from '../errors.js';
import type { LineHit } from './grep-match.js';
import type { FromGrepWorker, ToGrepWorker } from './grep-worker.js';
import { WorkerPool } from '../kernel/worker-pool.js';

const IDLE_STOP_MS = 20_000;
/** A batch still out after this long lowers the workers' priority (a hostile pattern, or a huge file). */
export const DEMOTE_MS = 250;
/** Where the worker pool's threads go once demoted; the parse workers run there from the start. */
const DEMOTED_NICE = 5;

export type GrepBatch = Omit<ToGrepWorker, 'id'>;

export function grepTimeout(ms: number): CairnError {
  return new CairnError(
    'timeout',
    `grep stopped after ${ms} ms: the pattern takes too long over these files (a regex with nested repetition such as (\\w+\\s?)* can backtrack without end)`,
    {
      remedy:
        'Use a simpler pattern (no nested quantifiers), narrow it with globs or folders, or raise search.grep_timeout_ms.',
      details: { timeout_ms: ms },
    },
  );
}

export class GrepPool {
  private readonly pool: WorkerPool<GrepBatch, (LineHit[] | null)[], FromGrepWorker>;
  /** Kernel thread id of each worker that reported one (Linux), and whether it was demoted. */
  private readonly tids = new Map<Worker, { tid: number; demoted: boolean }>();

  constructor(readonly size: number) {
    this.pool = new WorkerPool<GrepBatch, (LineHit[] | null)[], FromGrepWorker>({
      callerUrl: import.meta.url,
      script: 'grep-worker',
      size,
      // Batches go to the least busy worker at once, even one still loading: the walk keeps feeding.
      perWorker: Infinity,
      handshake: true,
      idleStopMs: IDLE_STOP_MS,
      resendOnCrash: true,
      post: (batch, id) => ({ id, ...batch }) satisfies ToGrepWorker,
      onMessage: (slot, m) => {
        if ('ready' in m) {
          this.forgetExited();
          if (m.tid) this.tids.set(slot.worker, { tid: m.tid, demoted: false });
          this.pool.ready(slot);
        } else if ('error' in m) this.pool.answer(slot, m.id, { error: new CairnError(m.code ?? 'internal', m.error) });
        else this.pool.answer(slot, m.id, { value: m.results });
      },
      timeoutError: (_job, ms) => grepTimeout(ms),
      crashError: (_job, code) => new CairnError('internal', `the grep worker stopped (exit code ${code})`),
      unavailableError: (why) => new CairnError('dependency_unavailable', `grep workers fail to start (${why})`),
      closedError: () =>
        new CairnError('dependency_unavailable', 'grep workers were stopped (the engine is shutting down)'),
    });
  }

  /** Batches sent and not yet answered. */
  get pending(): number {
    return this.pool.inFlight;
  }

  /** Worker threads running now. */
  get threads(): number {
    return this.pool.workers.length;
  }

  /** Reads and searches a batch of files on the least busy worker; rejects with `timeout` at `deadline` (epoch ms). */
  search(batch: GrepBatch, deadline: number, timeoutMs: number): Promise<(LineHit[] | null)[]> {
    return new Promise((resolve, reject) => {
      const slow = setTimeout(() => this.demote(), DEMOTE_MS);
      slow.unref();
      const settle = () => clearTimeout(slow);
      this.pool.submit({
        payload: batch,
        deadline,
        timeoutMs,
        resolve: (v) => (settle(), resolve(v)),
        reject: (err) => (settle(), reject(err)),
      });
    });
  }

  /** Kernel thread ids of the live workers (Linux; empty elsewhere). */
  get threadIds(): number[] {
    this.forgetExited();
    return [...this.tids.values()].map((t) => t.tid);
  }

  private forgetExited(): void {
    const live = new Set(this.pool.workers);
    for (const w of this.tids.keys()) if (!live.has(w)) this.tids.delete(w);
  }

  /**
   * Lowers every live worker to DEMOTED_NICE: which one holds the slow batch is the pool's
   * business, and a worker that took the others' place is soon idle-stopped anyway. Only threads of
   * workers still in the pool: the id of one that exited may name another thread by now.
   */
  private demote(): void {
    this.forgetExited();
    for (const t of this.tids.values()) {
      if (t.demoted) continue;
      t.demoted = true;
      try {
        setPriority(t.tid, DEMOTED_NICE);
      } catch {
        // Best effort, as the parse workers' preamble: a kernel that refuses leaves the priority.
      }
    }
  }

  /** Stops every worker now; what they held is sent again once to new ones (a crash costs speed, not results). */
  restart(): void {
    this.pool.restart();
  }

  close(): void {
    void this.pool.close();
  }
}

let shared: GrepPool | null = null;

/** The process's grep workers: at least one, whatever the core count (matching never runs on the main thread). */
export function sharedGrepPool(): GrepPool {
  shared ??= new GrepPool(Math.max(1, Math.min(4, availableParallelism())));
  return shared;
}
