/**
 * A pool of embedding worker threads fed from one queue. A worker that dies (crash, out of
 * memory, terminated) fails only the batch it held, with a typed error, and is replaced.
 */
import { Worker } from 'node:worker_threads';
import { CairnError } from '../errors.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';
import { workerScript } from '../worker-script.js';

interface Job {
  id: number;
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  /** Set from a `fatal` message or an `error` event, reported when the thread exits. */
  failure?: string;
}

export interface PoolOptions {
  size: number;
  /** Asked at every start: once a first worker has downloaded a hub model, the rest load it from disk. */
  config: () => WorkerConfig;
  onProgress?: (p: { file: string; loaded: number; total: number }) => void;
}

/** How long a worker may take to finish its batch and exit before it is terminated anyway. */
const CLOSE_GRACE_MS = 15_000;

function stopWorker(worker: Worker, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => void worker.terminate().then(() => resolve(), () => resolve()), graceMs);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage({ type: 'close' } satisfies ToWorker);
  });
}

/** Consecutive failed starts after which queued work is failed instead of retried forever. */
const MAX_START_FAILURES = 3;

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closing = false;
  private startFailures = 0;
  private lastFailure = '';
  dimensions = 0;

  constructor(private readonly opts: PoolOptions) {}

  /** Starts one worker (which downloads the model if need be), then the rest once files are local. */
  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.spawn(resolve, reject));
    for (let i = 1; i < this.opts.size; i++) this.spawn();
  }

  /** Worker threads the pool keeps (batches that keep every one of them busy). */
  get size(): number {
    return this.opts.size;
  }

  /** The live worker threads (for diagnostics and tests). */
  get threads(): Worker[] {
    return [...this.slots].map((s) => s.worker);
  }

  run(texts: string[], urgent = false): Promise<Float32Array[]> {
    if (this.closing) return Promise.reject(new CairnError('dependency_unavailable', 'The embedder is closed.'));
    return new Promise((resolve, reject) => {
      const job = { id: this.nextId++, texts, resolve, reject };
      if (urgent) this.queue.unshift(job);
      else this.queue.push(job);
      // Every worker may have died on start; try again now that there is work.
      if (this.slots.size === 0) {
        this.startFailures = 0;
        this.spawn();
      }
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const job of this.queue.splice(0)) job.reject(new CairnError('dependency_unavailable', 'The embedder was closed before this batch ran.'));
    // Asked, not killed: terminating a thread inside ONNX Runtime aborts the process (worker.ts).
    await Promise.all([...this.slots].map((s) => stopWorker(s.worker, CLOSE_GRACE_MS)));
    this.slots.clear();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.worker.postMessage({ type: 'embed', id: job.id, texts: job.texts } satisfies ToWorker);
    }
  }

  private spawn(onReady?: () => void, onFail?: (err: Error) => void): void {
    const { script, eval: isEval } = workerScript(import.meta.url, 'worker');
    const config = this.opts.config();
    const worker = new Worker(script, { eval: isEval, workerData: config });
    const slot: Slot = { worker, ready: false, job: null };
    this.slots.add(slot);
    worker.on('message', (msg: FromWorker) => {
      switch (msg.type) {
        case 'ready':
          slot.ready = true;
          this.startFailures = 0;
          this.dimensions = msg.dimensions;
          onReady?.();
          this.dispatch();
          break;
        case 'progress':
          this.opts.onProgress?.({ file: msg.file, loaded: msg.loaded, total: msg.total });
          break;
        case 'result':
        case 'failed': {
          const job = slot.job;
          slot.job = null;
          if (job && job.id === msg.id) {
            if (msg.type === 'failed') job.reject(new CairnError('internal', `Embedding failed: ${msg.message}`));
            else job.resolve(split(msg.data, msg.dimensions, job.texts.length));
          }
          this.dispatch();
          break;
        }
        case 'fatal':
          slot.failure = msg.message;
          break;
      }
    });
    worker.on('error', (err) => {
      slot.failure ??= err.message;
    });
    worker.on('exit', (code) => {
      this.slots.delete(slot);
      if (this.closing) return;
      const why = slot.failure ?? `exit code ${code}`;
      if (slot.job) {
        slot.job.reject(new CairnError('dependency_unavailable', `An embedding worker stopped while embedding a batch (${why}); the batch was not embedded.`, { remedy: 'Retry the batch.' }));
      }
      if (!slot.ready) {
        this.startFailures++;
        this.lastFailure = why;
        if (onFail) return onFail(new CairnError('dependency_unavailable', `The embedding model could not be loaded: ${why}`, { details: { model: config.modelRef } }));
        if (this.startFailures >= MAX_START_FAILURES) {
          if (this.slots.size === 0) this.failQueue();
          return;
        }
      }
      this.spawn();
    });
  }

  private failQueue(): void {
    const err = new CairnError('dependency_unavailable', `Embedding workers fail to start: ${this.lastFailure}`);
    for (const job of this.queue.splice(0)) job.reject(err);
  }
}

function split(flat: Float32Array, dimensions: number, count: number): Float32Array[] {
  return Array.from({ length: count }, (_, i) => flat.slice(i * dimensions, (i + 1) * dimensions));
}
