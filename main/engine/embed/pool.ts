/**
 * The embedding workers: the kernel's worker pool (kernel/worker-pool.ts) with the embedder's
 * protocol. A worker that dies (crash, out of memory, terminated) fails only the batch it held,
 * with a typed error, and is replaced; workers are asked to stop, never terminated from here
 * (terminating a thread inside ONNX Runtime aborts the process, worker.ts).
 */
import type { Worker } from 'node:worker_threads';
import { CairnError } from '../errors.js';
import { WorkerPool } from '../kernel/worker-pool.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';

export interface PoolOptions {
  size: number;
  /** Asked at every start: once a first worker has downloaded a hub model, the rest load it from disk. */
  config: () => WorkerConfig;
  onProgress?: (p: { file: string; loaded: number; total: number }) => void;
}

/** How long a worker may take to finish its batch and exit before it is terminated anyway. */
const CLOSE_GRACE_MS = 15_000;
/** Consecutive failed starts after which queued work is failed instead of retried forever. */
const MAX_START_FAILURES = 3;

function stopWorker(worker: Worker, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(
      () =>
        void worker.terminate().then(
          () => resolve(),
          () => resolve(),
        ),
      graceMs,
    );
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage({ type: 'close' } satisfies ToWorker);
  });
}

export class EmbedPool {
  private readonly pool: WorkerPool<string[], Float32Array[], FromWorker>;
  private lastModel = '';
  dimensions = 0;

  constructor(private readonly opts: PoolOptions) {
    this.pool = new WorkerPool<string[], Float32Array[], FromWorker>({
      callerUrl: import.meta.url,
      script: 'worker',
      size: opts.size,
      handshake: true,
      keepFull: true,
      closeIsFinal: true,
      maxStartFailures: MAX_START_FAILURES,
      workerData: () => {
        const config = opts.config();
        this.lastModel = config.modelRef;
        return config;
      },
      post: (texts, id) => ({ type: 'embed', id, texts }) satisfies ToWorker,
      onMessage: (slot, msg) => {
        switch (msg.type) {
          case 'ready':
            this.dimensions = msg.dimensions;
            this.pool.ready(slot);
            break;
          case 'progress':
            this.opts.onProgress?.({ file: msg.file, loaded: msg.loaded, total: msg.total });
            break;
          case 'result':
            this.pool.answer(slot, msg.id, { value: split(msg.data, msg.dimensions) });
            break;
          case 'failed':
            this.pool.answer(slot, msg.id, { error: new CairnError('internal', `Embedding failed: ${msg.message}`) });
            break;
          case 'fatal':
            slot.failure = msg.message;
            break;
        }
      },
      timeoutError: (_job, ms) => new CairnError('timeout', `An embedding batch took longer than ${ms} ms.`),
      crashError: (_job, code, failure) =>
        new CairnError(
          'dependency_unavailable',
          `An embedding worker stopped while embedding a batch (${failure ?? `exit code ${code}`}); the batch was not embedded.`,
          { remedy: 'Retry the batch.' },
        ),
      unavailableError: (why, starting) =>
        starting
          ? new CairnError('dependency_unavailable', `The embedding model could not be loaded: ${why}`, {
              details: { model: this.lastModel },
            })
          : new CairnError('dependency_unavailable', `Embedding workers fail to start: ${why}`),
      closedError: () => new CairnError('dependency_unavailable', 'The embedder is closed.'),
      stop: (worker) => stopWorker(worker, CLOSE_GRACE_MS),
    });
  }

  /** Starts one worker (which downloads the model if need be), then the rest once files are local. */
  async start(): Promise<void> {
    await this.pool.startOne();
    this.pool.fill();
  }

  /** Worker threads the pool keeps (batches that keep every one of them busy). */
  get size(): number {
    return this.pool.size;
  }

  /** The live worker threads (for diagnostics and tests). */
  get threads(): Worker[] {
    return this.pool.workers;
  }

  run(texts: string[], urgent = false): Promise<Float32Array[]> {
    // Every worker may have died on start; try again now that there is work.
    if (this.pool.workers.length === 0) this.pool.resetStartFailures();
    return new Promise((resolve, reject) => this.pool.submit({ payload: texts, resolve, reject }, urgent));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function split(flat: Float32Array, dimensions: number): Float32Array[] {
  const count = dimensions > 0 ? flat.length / dimensions : 0;
  return Array.from({ length: count }, (_, i) => flat.slice(i * dimensions, (i + 1) * dimensions));
}
