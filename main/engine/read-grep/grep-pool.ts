/**
 * Worker threads for grep. A grep is bound by per-file syscalls (open, fstat, read, close) and then
 * the regex: the main thread walks and keeps the order, batches of files are read and searched on
 * the workers. ALL matching of a user's pattern happens here, never on the main thread: a pattern
 * that backtracks without end (`^(\w+\s?)*$` over prose) stalls one worker, not the engine. Every
 * batch carries its call's deadline; past it the worker is terminated (V8 interrupts a running
 * regex), replaced on next use, and the call fails with `timeout`. Batches of other calls that the
 * killed worker held are sent again once. Workers start on first use and stop when idle.
 */
import { availableParallelism } from 'node:os';
import { CairnError } from '../errors.js';
import type { LineHit } from './grep-match.js';
import type { FromGrepWorker, ToGrepWorker } from './grep-worker.js';
import { WorkerPool } from '../kernel/worker-pool.js';

const IDLE_STOP_MS = 20_000;

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

  constructor(readonly size: number) {
    this.pool = new WorkerPool<GrepBatch, (LineHit[] | null)[], FromGrepWorker>({
      callerUrl: import.meta.url,
      script: 'grep-worker',
      nice: 5,
      size,
      // Batches go to the least busy worker at once, even one still loading: the walk keeps feeding.
      perWorker: Infinity,
      handshake: true,
      idleStopMs: IDLE_STOP_MS,
      resendOnCrash: true,
      post: (batch, id) => ({ id, ...batch }) satisfies ToGrepWorker,
      onMessage: (slot, m) => {
        if ('ready' in m) this.pool.ready(slot);
        else if ('error' in m) this.pool.answer(slot, m.id, { error: new CairnError(m.code ?? 'internal', m.error) });
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
    return new Promise((resolve, reject) => this.pool.submit({ payload: batch, deadline, timeoutMs, resolve, reject }));
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
