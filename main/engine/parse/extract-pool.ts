/**
 * Document extraction for `read`, in worker threads with a memory limit and a deadline: a PDF or
 * DOCX that needs gigabytes or minutes (a zip bomb, a pathological PDF) kills its worker, which is
 * replaced on the next call, and the caller gets a typed error; the main thread never parses.
 */
import { CairnError } from '../errors.js';
import { WorkerPool } from '../kernel/worker-pool.js';
import type { FromExtractWorker, ToExtractWorker } from './extract-worker.js';

/** Heap a worker may use: far above any real document, far below what a bomb would take. */
export const EXTRACT_HEAP_MB = 512;
export const EXTRACT_TIMEOUT_MS = 30_000;
const IDLE_STOP_MS = 20_000;

type Extraction = Omit<ToExtractWorker, 'id'>;

export class ExtractPool {
  private readonly pool: WorkerPool<Extraction, string[], FromExtractWorker>;

  constructor(readonly opts: { heapMb?: number; timeoutMs?: number } = {}) {
    const heap = opts.heapMb ?? EXTRACT_HEAP_MB;
    this.pool = new WorkerPool<Extraction, string[], FromExtractWorker>({
      callerUrl: import.meta.url,
      script: 'extract-worker',
      nice: 5,
      // One document at a time: extraction is for `read`, and a bomb should cost one worker's heap.
      size: 1,
      handshake: false,
      heapMb: heap,
      idleStopMs: IDLE_STOP_MS,
      post: (msg, id) => ({ id, ...msg }) satisfies ToExtractWorker,
      onMessage: (slot, m) => {
        if ('error' in m)
          this.pool.answer(slot, m.id, { error: new CairnError(m.code, m.error, { details: m.details }) });
        else this.pool.answer(slot, m.id, { value: m.pages });
      },
      timeoutError: (job, ms) =>
        new CairnError('timeout', `${job.payload.rel}: text extraction took longer than ${ms} ms and was stopped`, {
          remedy: 'Open the file in its own application.',
          details: { path: job.payload.rel, timeout_ms: ms },
        }),
      crashError: (job, code) =>
        new CairnError(
          'invalid_argument',
          `${job.payload.rel}: text extraction needed more than ${heap} MB or crashed (exit code ${code}); not served`,
          {
            remedy: 'Open the file in its own application.',
            details: { path: job.payload.rel, reason: 'extraction failed' },
          },
        ),
      unavailableError: (why) =>
        new CairnError('dependency_unavailable', `document extraction could not start (${why})`),
      closedError: () => new CairnError('dependency_unavailable', 'document extraction was stopped'),
    });
  }

  /** A PDF's pages, or a DOCX's text as one page. */
  extract(kind: 'pdf' | 'docx', bytes: Uint8Array, rel: string): Promise<string[]> {
    const timeoutMs = this.opts.timeoutMs ?? EXTRACT_TIMEOUT_MS;
    return new Promise((resolve, reject) =>
      this.pool.submit({ payload: { kind, bytes, rel }, timeoutMs, resolve, reject }),
    );
  }

  get threads(): number {
    return this.pool.workers.length;
  }

  close(): void {
    void this.pool.close();
  }
}

let shared: ExtractPool | null = null;

export function sharedExtractPool(): ExtractPool {
  shared ??= new ExtractPool();
  return shared;
}
