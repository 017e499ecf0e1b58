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
import { keepOnnxRuntimeLocal } from './runtime-env.js';

export interface PoolOptions {
  size: number;
  /** Asked at every start: once a first worker has downloaded a hub model, the rest load it from disk. */
  config: () => WorkerConfig;
  onProgress?: (p: { file: string; loaded: number; total: number }) => void;
  /** How long the workers beyond the first stay after the last document batch; default 30 s. */
  extraWorkersIdleMs?: number;
}

/** How long a worker may take to finish its batch and exit before it is terminated anyway. */
const CLOSE_GRACE_MS = 15_000;
/**
 * The same for a worker still loading the model: terminating it inside ONNX Runtime's session
 * creation aborts the process, and on a loaded machine a load can outlast CLOSE_GRACE_MS (extra
 * workers now start with the first document batch, so a short index run can close one mid-load).
 */
const LOADING_GRACE_MS = 180_000;
/** Consecutive failed starts after which queued work is failed instead of retried forever. */
const MAX_START_FAILURES = 3;
/**
 * How long after the last document batch the extra workers stay. Each worker holds its own copy of
 * the model and ONNX Runtime's buffers (a second worker of the built-in model took RSS from 245 to
 * 374 MB once it had embedded queries, compiled build), and queries need one: a search embeds one
 * short text, so a busy MCP engine keeps one worker; indexing gets them all and gives them back.
 */
const EXTRA_WORKERS_IDLE_MS = 30_000;
/**
 * A worker's JavaScript is a tokenizer and a pooling loop; its batches live in ArrayBuffers outside
 * the V8 heap. A small young generation is enough: `indexing-rss --quick` peaked 451/457 MB against
 * 473/486 MB, and 32 clients 345 MB against 355 MB, in the same time (interleaved).
 */
const YOUNG_GENERATION_MB = 4;

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
  private shrinkTimer: NodeJS.Timeout | null = null;
  private readonly loaded = new WeakSet<Worker>();
  dimensions = 0;

  constructor(private readonly opts: PoolOptions) {
    keepOnnxRuntimeLocal();
    this.pool = new WorkerPool<string[], Float32Array[], FromWorker>({
      callerUrl: import.meta.url,
      script: 'worker',
      size: opts.size,
      initialSize: 1,
      handshake: true,
      keepFull: true,
      closeIsFinal: true,
      youngGenerationMb: YOUNG_GENERATION_MB,
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
            this.loaded.add(slot.worker);
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
      stop: (worker) => stopWorker(worker, this.loaded.has(worker) ? CLOSE_GRACE_MS : LOADING_GRACE_MS),
    });
  }

  /** Starts the one worker queries need (which downloads the model if need be); documents start the rest. */
  async start(): Promise<void> {
    await this.pool.startOne();
  }

  /** Worker threads the pool runs while documents are embedded (batches that keep every one of them busy). */
  get size(): number {
    return this.pool.size;
  }

  /** The live worker threads (for diagnostics and tests). */
  get threads(): Worker[] {
    return this.pool.workers;
  }

  /** `urgent`: a query's text (one worker is enough and it jumps the queue); else a document batch. */
  run(texts: string[], urgent = false): Promise<Float32Array[]> {
    // Every worker may have died on start; try again now that there is work.
    if (this.pool.workers.length === 0) this.pool.resetStartFailures();
    if (!urgent) this.documentsArrived();
    return new Promise((resolve, reject) => this.pool.submit({ payload: texts, resolve, reject }, urgent));
  }

  private documentsArrived(): void {
    if (this.pool.size > 1) this.pool.resize(this.pool.size);
    this.armShrink();
  }

  private armShrink(): void {
    if (this.shrinkTimer) clearTimeout(this.shrinkTimer);
    this.shrinkTimer = null;
    if (this.pool.size <= 1) return;
    this.shrinkTimer = setTimeout(() => {
      this.shrinkTimer = null;
      // Workers still busy with a batch are asked again later.
      if (this.pool.resize(1) > 0) this.armShrink();
    }, this.opts.extraWorkersIdleMs ?? EXTRA_WORKERS_IDLE_MS);
    this.shrinkTimer.unref();
  }

  close(): Promise<void> {
    if (this.shrinkTimer) clearTimeout(this.shrinkTimer);
    this.shrinkTimer = null;
    return this.pool.close();
  }
}

function split(flat: Float32Array, dimensions: number): Float32Array[] {
  const count = dimensions > 0 ? flat.length / dimensions : 0;
  return Array.from({ length: count }, (_, i) => flat.slice(i * dimensions, (i + 1) * dimensions));
}
