/**
 * Worker threads for grep. A grep is bound by per-file syscalls (open, fstat, read, close) and then
 * the regex: the main thread walks and keeps the order, batches of files are read and searched on
 * the workers. Started on first use and stopped when idle; a batch a worker fails is searched on the
 * main thread instead (the caller's fallback), so a missing worker costs speed, never results.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LineHit, MatchSpec } from './grep-match.js';
import type { FromGrepWorker, ToGrepWorker } from './grep-worker.js';
import type { WalkedFile } from './grep-walk.js';
import { workerScript } from '../worker-script.js';

const IDLE_STOP_MS = 20_000;

interface Pending {
  resolve: (r: (LineHit[] | null)[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
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

  /** Reads and searches a batch of files on the least busy worker. */
  search(spec: MatchSpec, maxFileBytes: number, limit: number, files: WalkedFile[]): Promise<(LineHit[] | null)[]> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    while (this.slots.length < this.size) this.spawn();
    const slot = this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage({ id, spec, maxFileBytes, limit, files } satisfies ToGrepWorker);
    });
  }

  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const s of this.slots.splice(0)) void s.worker.terminate();
  }

  private spawn(): void {
    const { script, eval: isEval } = workerScript(import.meta.url, 'grep-worker');
    const worker = new Worker(script, { eval: isEval });
    const slot: Slot = { worker, pending: new Map() };
    this.slots.push(slot);
    worker.on('message', (m: FromGrepWorker) => {
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      if ('error' in m) p.reject(new Error(m.error));
      else p.resolve(m.results);
      this.settle();
    });
    // The exit event follows with what matters: every batch the worker held fails.
    worker.on('error', () => undefined);
    worker.on('exit', (code) => {
      const at = this.slots.indexOf(slot);
      if (at !== -1) this.slots.splice(at, 1);
      for (const p of slot.pending.values()) p.reject(new Error(`the grep worker stopped (exit code ${code})`));
      slot.pending.clear();
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

/** The process's grep workers, or null where one core is all there is (the main thread does it all). */
export function sharedGrepPool(): GrepPool | null {
  const size = Math.min(4, availableParallelism());
  if (size < 2) return null;
  shared ??= new GrepPool(size);
  return shared;
}
