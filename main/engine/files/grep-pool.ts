/**
 * Worker threads for grep. A grep is bound by per-file syscalls (open, fstat, read, close) and then
 * the regex: the main thread walks and keeps the order, batches of files are read and searched on
 * the workers. ALL matching of a user's pattern happens here, never on the main thread: a pattern
 * that backtracks without end (`^(\w+\s?)*$` over prose) stalls one worker, not the engine. Every
 * batch carries its call's deadline; past it the worker is terminated (V8 interrupts a running
 * regex), replaced on next use, and the call fails with `timeout`. Batches of other calls that the
 * killed worker held are sent again, within their own deadlines; a worker that crashes costs its
 * batches one resend. Workers start on first use and stop when idle.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CairnError } from '../errors.js';
import type { LineHit } from './grep-match.js';
import type { FromGrepWorker, ToGrepWorker } from './grep-worker.js';
import { workerScript } from '../worker-script.js';

const IDLE_STOP_MS = 20_000;

export type GrepBatch = Omit<ToGrepWorker, 'id'>;

interface Pending {
  batch: GrepBatch;
  deadline: number;
  timeoutMs: number;
  /** When it was handed to a worker that had not started yet (its start-up does not count against the call). */
  waitingSince: number | null;
  timer: NodeJS.Timeout | null;
  retried: boolean;
  resolve: (r: (LineHit[] | null)[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** The worker has loaded its modules: a loaded machine can take seconds for that. */
  ready: boolean;
  /** Terminated by the pool because one call's time was up: the other batches it held did nothing wrong. */
  killed: boolean;
}

export function grepTimeout(ms: number): CairnError {
  return new CairnError('timeout', `grep stopped after ${ms} ms: the pattern takes too long over these files (a regex with nested repetition such as (\\w+\\s?)* can backtrack without end)`, {
    remedy: 'Use a simpler pattern (no nested quantifiers), narrow it with globs or folders, or raise search.grep_timeout_ms.',
    details: { timeout_ms: ms },
  });
}

export class GrepPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(readonly size: number) {}

  /** Batches sent and not yet answered. */
  get pending(): number {
    return this.slots.reduce((n, s) => n + s.pending.size, 0);
  }

  /** Worker threads running now. */
  get threads(): number {
    return this.slots.length;
  }

  /** Reads and searches a batch of files on the least busy worker; rejects with `timeout` at `deadline` (epoch ms). */
  search(batch: GrepBatch, deadline: number, timeoutMs: number): Promise<(LineHit[] | null)[]> {
    return new Promise((resolve, reject) => {
      const p: Pending = { batch, deadline, timeoutMs, waitingSince: null, retried: false, resolve, reject, timer: null };
      this.dispatch(p);
    });
  }

  /** Stops every worker now; what they held is sent again once to new ones (a crash costs speed, not results). */
  restart(): void {
    // Out of the pool first, so what they held is not sent to one of them again while they stop.
    for (const s of this.slots.splice(0)) void s.worker.terminate();
  }

  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const s of this.slots.splice(0)) {
      for (const p of s.pending.values()) {
        if (p.timer) clearTimeout(p.timer);
        p.reject(new CairnError('dependency_unavailable', 'grep workers were stopped (the engine is shutting down)'));
      }
      s.pending.clear();
      void s.worker.terminate();
    }
  }

  private dispatch(p: Pending): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    while (this.slots.length < this.size) this.spawn();
    const slot = this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    slot.pending.set(id, p);
    if (p.timer) clearTimeout(p.timer);
    p.timer = null;
    if (slot.ready) this.arm(p);
    else p.waitingSince = Date.now();
    slot.worker.ref();
    slot.worker.postMessage({ id, ...p.batch } satisfies ToGrepWorker);
  }

  private arm(p: Pending): void {
    if (p.waitingSince !== null) p.deadline += Date.now() - p.waitingSince;
    p.waitingSince = null;
    p.timer = setTimeout(() => this.expire(p, p.timeoutMs), Math.max(0, p.deadline - Date.now()));
  }

  /** The call's time is up: its batch fails with `timeout` and the worker running it is killed. */
  private expire(p: Pending, timeoutMs: number): void {
    for (const slot of [...this.slots]) {
      for (const [id, q] of slot.pending) {
        if (q !== p) continue;
        slot.pending.delete(id);
        slot.killed = true;
        this.drop(slot);
        void slot.worker.terminate();
      }
    }
    p.reject(grepTimeout(timeoutMs));
  }

  private drop(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at !== -1) this.slots.splice(at, 1);
  }

  private spawn(): void {
    const { script, eval: isEval } = workerScript(import.meta.url, 'grep-worker', { nice: 5 });
    const worker = new Worker(script, { eval: isEval });
    const slot: Slot = { worker, pending: new Map(), ready: false, killed: false };
    this.slots.push(slot);
    worker.on('message', (m: FromGrepWorker) => {
      if ('ready' in m) {
        slot.ready = true;
        for (const p of slot.pending.values()) this.arm(p);
        return;
      }
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      if (p.timer) clearTimeout(p.timer);
      if ('error' in m) p.reject(new CairnError(m.code ?? 'internal', m.error));
      else p.resolve(m.results);
      this.settle();
    });
    // The exit event follows with what matters.
    worker.on('error', () => undefined);
    worker.on('exit', (code) => {
      this.drop(slot);
      const held = [...slot.pending.values()];
      slot.pending.clear();
      for (const p of held) {
        if (p.waitingSince === null && Date.now() >= p.deadline) {
          // Its own time ran out as well: the same answer as if its own timer had fired.
          if (p.timer) clearTimeout(p.timer);
          p.reject(grepTimeout(p.timeoutMs));
        } else if (slot.killed || !p.retried) {
          // A worker killed for another call's deadline costs its other batches a resend, never their
          // result (however many hostile calls shared it: each kill is one call's expiry, so this ends).
          // A crash is resent once.
          if (!slot.killed) p.retried = true;
          this.dispatch(p);
        } else {
          if (p.timer) clearTimeout(p.timer);
          p.reject(new CairnError('internal', `the grep worker stopped (exit code ${code})`));
        }
      }
      this.settle();
    });
  }

  /** Idle workers must not keep the process alive, and are stopped after a while. */
  private settle(): void {
    for (const s of this.slots) if (s.pending.size === 0) s.worker.unref();
    if (this.slots.some((s) => s.pending.size > 0)) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.close(), IDLE_STOP_MS);
    this.idleTimer.unref();
  }
}

let shared: GrepPool | null = null;

/** The process's grep workers: at least one, whatever the core count (matching never runs on the main thread). */
export function sharedGrepPool(): GrepPool {
  shared ??= new GrepPool(Math.max(1, Math.min(4, availableParallelism())));
  return shared;
}
