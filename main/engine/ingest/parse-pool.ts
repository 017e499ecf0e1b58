/**
 * Parse workers: files are read, parsed and chunked on every core while the main thread writes
 * the previous batch. Workers start on first use and stop after a while without work; an idle
 * worker never keeps the process alive. A worker that dies fails only the file it held.
 */
import { availableParallelism } from 'node:os';
import { ANSWERED, COUNT, type CounterSpec, type FromParseWorker, type ToParseWorker } from './parse-protocol.js';
import type { ParseTask } from './parse-task.js';
import type { FileRows } from './rows.js';
import { WorkerPool, type Slot } from '../kernel/worker-pool.js';

export interface Counter {
  spec: CounterSpec;
  /** The model's count of one word (no whitespace); absent without a model. */
  countWord?: (word: string) => number;
}

/** Thrown for tasks dropped before they ran (their ingest was cancelled or failed). */
export class ParseDropped extends Error {
  constructor() {
    super('parse dropped');
  }
}

/** Raised when no worker can start at all: the caller parses on its own thread instead. */
export class ParseWorkersUnavailable extends Error {}

interface ParseJob {
  task: ParseTask;
  maxTokens: number;
  counter: Counter;
}

const IDLE_STOP_MS = 20_000;
const MAX_START_FAILURES = 3;
/**
 * A parse worker's heap: far above any file within `index.max_file_bytes`, far below what a
 * hostile document (a DOCX bomb, a pathological PDF) would take; past it the worker dies, alone.
 */
export const PARSE_HEAP_MB = 1024;
/**
 * Its young generation: a file's strings die young, and 64 MB of it (an eighth of the heap) kept
 * the worker's heap near 100 MB. At 16 MB, 2,000 Markdown files (25k chunks) indexed with a peak
 * of 391-405 MB against 440-475 MB, in 8.9-9.6 s against 10.0-10.2 s (interleaved, 3 pairs).
 */
const PARSE_YOUNG_MB = 16;
/** Files sent to a worker at once: the one it parses and those it takes next. */
const PARSE_QUEUE = 8;
/** One file's parse past this is stuck (or hostile): its worker is replaced and the file recorded as unparsable. */
export const PARSE_TIMEOUT_MS = 120_000;

export class ParsePool {
  private readonly pool: WorkerPool<ParseJob, FileRows | 'unchanged', FromParseWorker>;
  /** Each worker's answer cell for its synchronous word-count questions. */
  private readonly cells = new WeakMap<Slot, Int32Array>();
  /** The counters of the tasks in flight, by key, to answer the workers' questions. */
  private readonly counters = new Map<string, Counter>();

  /**
   * One core is left to the main thread and LanceDB, which write while the workers parse (on two
   * cores, a second worker only added its own start-up and contention: measured).
   */
  constructor(
    readonly size = Math.max(1, Math.min(4, availableParallelism() - 1)),
    private readonly limits: { heapMb: number; timeoutMs: number } = {
      heapMb: PARSE_HEAP_MB,
      timeoutMs: PARSE_TIMEOUT_MS,
    },
  ) {
    this.pool = new WorkerPool<ParseJob, FileRows | 'unchanged', FromParseWorker>({
      callerUrl: import.meta.url,
      script: 'parse-worker',
      size,
      // The next files wait in the worker: it never idles while this thread, busy writing a batch,
      // has not yet read its last answer (at 20k chunks a worker alone stood idle a quarter of the time).
      perWorker: PARSE_QUEUE,
      sequential: true,
      handshake: true,
      heapMb: limits.heapMb,
      youngGenerationMb: PARSE_YOUNG_MB,
      maxStartFailures: MAX_START_FAILURES,
      idleStopMs: IDLE_STOP_MS,
      workerData: () => ({ shared: new SharedArrayBuffer(8) }),
      post: (job, id) =>
        ({
          type: 'parse',
          id,
          task: job.task,
          maxTokens: job.maxTokens,
          counter: job.counter.spec,
        }) satisfies ToParseWorker,
      onMessage: (slot, m) => this.onMessage(slot, m),
      // No worker can ask now; a closed engine's tokenizer is not kept alive by this process-wide pool.
      onIdle: () => this.counters.clear(),
      timeoutError: (_job, ms) => new Error(`parsing took longer than ${ms} ms and was stopped`),
      crashError: (_job, code) =>
        new Error(
          `the parse worker stopped (exit code ${code}${code === 1 ? ', e.g. past its ' + limits.heapMb + ' MB heap' : ''}) while parsing this file`,
        ),
      unavailableError: (why) => new ParseWorkersUnavailable(`parse workers fail to start (${why})`),
      closedError: () => new ParseDropped(),
    });
  }

  /** Starts the workers ahead of work (they load their modules while the walk runs). */
  warm(): void {
    if (!this.pool.unavailable) this.pool.fill();
  }

  parse(task: ParseTask, maxTokens: number, counter: Counter, dropped: () => boolean): Promise<FileRows | 'unchanged'> {
    if (this.pool.unavailable) return Promise.reject(new ParseWorkersUnavailable('parse workers fail to start'));
    this.counters.set(counter.spec.key, counter);
    return new Promise((resolve, reject) => {
      this.pool.submit({
        payload: { task, maxTokens, counter },
        timeoutMs: this.limits.timeoutMs,
        skip: () => (dropped() ? new ParseDropped() : null),
        resolve,
        reject,
      });
    });
  }

  /** Stops the workers now unless one is parsing (their idle stop, brought forward). */
  stopIdle(): boolean {
    return this.pool.stopIdle();
  }

  /** Stops every worker now (tests, shutdown); queued tasks are dropped. */
  close(): Promise<void> {
    return this.pool.close();
  }

  get threads(): number {
    return this.pool.workers.length;
  }

  private cell(slot: Slot): Int32Array {
    let cell = this.cells.get(slot);
    if (!cell) this.cells.set(slot, (cell = new Int32Array((slot.data as { shared: SharedArrayBuffer }).shared)));
    return cell;
  }

  private countWord(key: string, word: string): number {
    const c = this.counters.get(key);
    // A counter is registered before any task that uses it is sent; 0 only if a worker asks out of turn.
    return c?.countWord ? c.countWord(word) : 0;
  }

  private onMessage(slot: Slot, m: FromParseWorker): void {
    switch (m.type) {
      case 'ready':
        this.pool.ready(slot);
        break;
      case 'word': {
        const cell = this.cell(slot);
        Atomics.store(cell, COUNT, this.countWord(m.key, m.word));
        Atomics.store(cell, ANSWERED, 1);
        Atomics.notify(cell, ANSWERED);
        break;
      }
      case 'words':
        slot.worker.postMessage({
          type: 'counts',
          id: m.id,
          counts: m.words.map((w) => this.countWord(m.key, w)),
        } satisfies ToParseWorker);
        break;
      case 'done':
        this.pool.answer(slot, m.id, { value: m.rows });
        break;
      case 'failed':
        this.pool.answer(slot, m.id, { error: new Error(m.message) });
        break;
    }
  }
}
