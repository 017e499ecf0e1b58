/**
 * Document extraction for `read`, in worker threads with a memory limit and a deadline: a PDF or
 * DOCX that needs gigabytes or minutes (a zip bomb, a pathological PDF) kills its worker, which is
 * replaced on the next call, and the caller gets a typed error; the main thread never parses.
 */
import { Worker } from 'node:worker_threads';
import { CairnError } from '../errors.js';
import { workerScript } from '../worker-script.js';
import type { FromExtractWorker, ToExtractWorker } from './extract-worker.js';

/** Heap a worker may use: far above any real document, far below what a bomb would take. */
export const EXTRACT_HEAP_MB = 512;
export const EXTRACT_TIMEOUT_MS = 30_000;
const IDLE_STOP_MS = 20_000;

interface Job {
  msg: ToExtractWorker;
  resolve: (pages: string[]) => void;
  reject: (err: Error) => void;
}

export class ExtractPool {
  private worker: Worker | null = null;
  private current: (Job & { timer: NodeJS.Timeout }) | null = null;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(readonly opts: { heapMb?: number; timeoutMs?: number } = {}) {}

  /** A PDF's pages, or a DOCX's text as one page. */
  extract(kind: 'pdf' | 'docx', bytes: Uint8Array, rel: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ msg: { id: this.nextId++, kind, bytes, rel }, resolve, reject });
      this.pump();
    });
  }

  get threads(): number {
    return this.worker ? 1 : 0;
  }

  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const w = this.worker;
    this.worker = null;
    if (this.current) {
      clearTimeout(this.current.timer);
      this.current.reject(new CairnError('dependency_unavailable', 'document extraction was stopped'));
      this.current = null;
    }
    for (const j of this.queue.splice(0)) j.reject(new CairnError('dependency_unavailable', 'document extraction was stopped'));
    void w?.terminate();
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const job = this.queue.shift() as Job;
    const worker = this.worker ?? this.spawn();
    const timeoutMs = this.opts.timeoutMs ?? EXTRACT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      this.fail(new CairnError('timeout', `${job.msg.rel}: text extraction took longer than ${timeoutMs} ms and was stopped`, { remedy: 'Open the file in its own application.', details: { path: job.msg.rel, timeout_ms: timeoutMs } }));
      void worker.terminate();
    }, timeoutMs);
    this.current = { ...job, timer };
    worker.ref();
    worker.postMessage(job.msg);
  }

  private fail(err: Error): void {
    const job = this.current;
    this.current = null;
    this.worker = null;
    if (job) {
      clearTimeout(job.timer);
      job.reject(err);
    }
    this.pump();
  }

  private spawn(): Worker {
    const { script, eval: isEval } = workerScript(import.meta.url, 'extract-worker', { nice: 5 });
    const heap = this.opts.heapMb ?? EXTRACT_HEAP_MB;
    const worker = new Worker(script, { eval: isEval, resourceLimits: { maxOldGenerationSizeMb: heap, maxYoungGenerationSizeMb: Math.min(64, heap / 4) } });
    this.worker = worker;
    worker.on('message', (m: FromExtractWorker) => {
      const job = this.current;
      if (!job || job.msg.id !== m.id) return;
      this.current = null;
      clearTimeout(job.timer);
      if ('error' in m) job.reject(new CairnError(m.code, m.error, { details: m.details }));
      else job.resolve(m.pages);
      if (this.queue.length > 0) this.pump();
      else this.idle();
    });
    worker.on('error', () => undefined);
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      const rel = this.current?.msg.rel ?? 'the document';
      this.fail(new CairnError('invalid_argument', `${rel}: text extraction needed more than ${heap} MB or crashed (exit code ${code}); not served`, { remedy: 'Open the file in its own application.', details: { path: rel, reason: 'extraction failed' } }));
    });
    return worker;
  }

  private idle(): void {
    this.worker?.unref();
    this.idleTimer = setTimeout(() => this.close(), IDLE_STOP_MS);
    this.idleTimer.unref();
  }
}

let shared: ExtractPool | null = null;

export function sharedExtractPool(): ExtractPool {
  shared ??= new ExtractPool();
  return shared;
}
