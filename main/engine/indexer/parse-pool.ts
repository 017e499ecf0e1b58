/**
 * Parse workers: files are read, parsed and chunked on every core while the main thread writes
 * the previous batch. Workers start on first use and stop after a while without work; an idle
 * worker never keeps the process alive. A worker that dies fails only the file it held.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ANSWERED, COUNT, type CounterSpec, type FromParseWorker, type ToParseWorker } from './parse-protocol.js';
import type { ParseTask } from './parse-task.js';
import type { FileRows } from './rows.js';
import { workerScript } from '../worker-script.js';

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

interface Pending {
  id: number;
  task: ParseTask;
  maxTokens: number;
  counter: Counter;
  dropped: () => boolean;
  resolve: (rows: FileRows | 'unchanged') => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  cell: Int32Array;
  ready: boolean;
  job: Pending | null;
  /** Kills the worker when its file takes longer than PARSE_TIMEOUT_MS. */
  timer: NodeJS.Timeout | null;
}

const IDLE_STOP_MS = 20_000;
const MAX_START_FAILURES = 3;
/**
 * A parse worker's heap: far above any file within `index.max_file_bytes`, far below what a
 * hostile document (a DOCX bomb, a pathological PDF) would take; past it the worker dies, alone.
 */
export const PARSE_HEAP_MB = 1024;
/** One file's parse past this is stuck (or hostile): its worker is replaced and the file recorded as unparsable. */
export const PARSE_TIMEOUT_MS = 120_000;

export class ParsePool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private startFailures = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  /** The counters of the tasks in flight, by key, to answer the workers' questions. */
  private readonly counters = new Map<string, Counter>();

  /**
   * One core is left to the main thread and LanceDB, which write while the workers parse (on two
   * cores, a second worker only added its own start-up and contention: measured).
   */
  constructor(
    readonly size = Math.max(1, Math.min(4, availableParallelism() - 1)),
    private readonly limits: { heapMb: number; timeoutMs: number } = { heapMb: PARSE_HEAP_MB, timeoutMs: PARSE_TIMEOUT_MS },
  ) {}

  /** Starts the workers ahead of work (they load their modules while the walk runs). */
  warm(): void {
    if (this.startFailures >= MAX_START_FAILURES) return;
    while (this.slots.size < this.size) this.spawn();
    this.idle();
  }

  parse(task: ParseTask, maxTokens: number, counter: Counter, dropped: () => boolean): Promise<FileRows | 'unchanged'> {
    if (this.startFailures >= MAX_START_FAILURES) return Promise.reject(new ParseWorkersUnavailable('parse workers fail to start'));
    this.counters.set(counter.spec.key, counter);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, maxTokens, counter, dropped, resolve, reject });
      this.busy();
      while (this.slots.size < this.size) this.spawn();
      this.dispatch();
    });
  }

  /** Stops every worker now (tests, shutdown); queued tasks are dropped. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const p of this.queue.splice(0)) p.reject(new ParseDropped());
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  get threads(): number {
    return this.slots.size;
  }

  private busy(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const s of this.slots) s.worker.ref();
  }

  /** No work left: workers no longer hold the process, and stop if none comes for a while. */
  private idle(): void {
    if (this.queue.length > 0 || [...this.slots].some((s) => s.job)) return;
    // No worker can ask now; a closed engine's tokenizer is not kept alive by this process-wide pool.
    this.counters.clear();
    for (const s of this.slots) s.worker.unref();
    this.idleTimer ??= setTimeout(() => void this.close(), IDLE_STOP_MS);
    this.idleTimer.unref();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job) continue;
      let next = this.queue.shift();
      while (next && next.dropped()) {
        next.reject(new ParseDropped());
        next = this.queue.shift();
      }
      if (!next) break;
      slot.job = next;
      const worker = slot.worker;
      const job = next;
      slot.timer = setTimeout(() => {
        if (slot.job !== job) return;
        slot.job = null;
        slot.ready = false;
        job.reject(new Error(`parsing took longer than ${this.limits.timeoutMs} ms and was stopped`));
        void worker.terminate();
      }, this.limits.timeoutMs);
      slot.worker.postMessage({ type: 'parse', id: next.id, task: next.task, maxTokens: next.maxTokens, counter: next.counter.spec } satisfies ToParseWorker);
    }
    this.idle();
  }

  private countWord(key: string, word: string): number {
    const c = this.counters.get(key);
    // A counter is registered before any task that uses it is sent; 0 only if a worker asks out of turn.
    return c?.countWord ? c.countWord(word) : 0;
  }

  private spawn(): void {
    const { script, eval: isEval } = workerScript(import.meta.url, 'parse-worker');
    const shared = new SharedArrayBuffer(8);
    const heap = this.limits.heapMb;
    const worker = new Worker(script, { eval: isEval, workerData: { shared }, resourceLimits: { maxOldGenerationSizeMb: heap, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, heap / 8)) } });
    const slot: Slot = { worker, cell: new Int32Array(shared), ready: false, job: null, timer: null };
    this.slots.add(slot);
    worker.on('message', (m: FromParseWorker) => this.onMessage(slot, m));
    // The exit event follows with the details that matter here.
    worker.on('error', () => undefined);
    worker.on('exit', (code) => {
      if (slot.timer) clearTimeout(slot.timer);
      if (!this.slots.delete(slot)) return;
      if (slot.job) slot.job.reject(new Error(`the parse worker stopped (exit code ${code}${code === 1 ? ', e.g. past its ' + heap + ' MB heap' : ''}) while parsing this file`));
      if (!slot.ready && ++this.startFailures >= MAX_START_FAILURES) {
        for (const p of this.queue.splice(0)) p.reject(new ParseWorkersUnavailable(`parse workers fail to start (exit code ${code})`));
        return;
      }
      if (this.queue.length > 0) this.spawn();
      this.idle();
    });
  }

  private onMessage(slot: Slot, m: FromParseWorker): void {
    switch (m.type) {
      case 'ready':
        slot.ready = true;
        this.startFailures = 0;
        this.dispatch();
        break;
      case 'word':
        Atomics.store(slot.cell, COUNT, this.countWord(m.key, m.word));
        Atomics.store(slot.cell, ANSWERED, 1);
        Atomics.notify(slot.cell, ANSWERED);
        break;
      case 'words':
        slot.worker.postMessage({ type: 'counts', id: m.id, counts: m.words.map((w) => this.countWord(m.key, w)) } satisfies ToParseWorker);
        break;
      case 'done':
      case 'failed': {
        const job = slot.job;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.job = null;
        if (job && job.id === m.id) {
          if (m.type === 'done') job.resolve(m.rows);
          else job.reject(new Error(m.message));
        }
        this.dispatch();
        break;
      }
    }
  }
}
