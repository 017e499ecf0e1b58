/**
 * The one worker-thread pool: slots, a queue, dispatch, per-job deadlines, crash handling, start
 * failures and idle stop. The embedder, the parse and extract pools and grep each add only their
 * message protocol and their error wording (embed/pool.ts, ingest/parse-pool.ts,
 * parse/extract-pool.ts, read-grep/grep-pool.ts).
 *
 * The rules every pool shares: a worker that dies fails (or, where the pool allows, re-sends once)
 * only the jobs it held; a job's deadline kills the worker that runs it (V8 interrupts a running
 * regex or parser, nothing else can); a worker's module loading does not count against a job's
 * deadline; consecutive failed starts stop the retrying; idle workers never keep the process alive.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { workerScript } from '../worker-script.js';

export interface PoolJob<T, R> {
  readonly payload: T;
  /** Time this job may take once a started worker holds it; past it the worker is terminated. */
  readonly timeoutMs?: number;
  /** Or a deadline shared by a call's jobs (epoch ms); a worker's start-up is added to it. */
  readonly deadline?: number;
  /** Called at dispatch: an error here rejects the job unsent (its caller gave up on it). */
  readonly skip?: () => Error | null;
  resolve(value: R): void;
  reject(err: Error): void;
}

interface Held<T, R> {
  job: PoolJob<T, R>;
  /** Epoch ms when it must have answered; set once its worker is ready. */
  deadline: number | null;
  /** Sent to a worker still loading: that wait is added to the deadline. */
  waitingSince: number | null;
  timer: NodeJS.Timeout | null;
  retried: boolean;
}

export interface Slot {
  readonly worker: Worker;
  /** What `workerData()` gave this worker. */
  readonly data: unknown;
  /** The worker has loaded its modules (a loaded machine can take seconds for that). */
  ready: boolean;
  /** Set from a worker's own report of a fatal error or an `error` event, reported at exit. */
  failure?: string;
}

interface SlotState<T, R> extends Slot {
  held: Map<number, Held<T, R>>;
  /** Taken out of the pool (deadline, restart, close): nothing more is sent to it. */
  retired: boolean;
  /** Being stopped by close(): what it held is close()'s to settle, not a crash. */
  closing: boolean;
  /** Terminated because one job's time was up: the other jobs it held did nothing wrong. */
  killed: boolean;
}

export interface WorkerPoolOptions<T, R, M> {
  /** `import.meta.url` of the module the worker file lives next to, and the worker's file name. */
  readonly callerUrl: string;
  readonly script: string;
  readonly size: number;
  /** Workers kept until `resize` asks for more (default `size`). */
  readonly initialSize?: number;
  /** Niceness the worker thread takes in its first statement (user patterns and documents yield to the engine). */
  readonly nice?: number;
  /** Jobs one worker holds at once (1: it gets the next only when it answers). */
  readonly perWorker?: number;
  /**
   * The worker runs the jobs it holds one after another, in the order sent (perWorker > 1 then
   * only saves it the wait for its next job). A job's deadline starts when the one before it is
   * answered, and when the worker dies, only the oldest job it held was running: the others are
   * sent again as if never sent.
   */
  readonly sequential?: boolean;
  /** The worker posts a ready message first (`ready(slot)`); before it, only pools with perWorker > 1 send. */
  readonly handshake: boolean;
  readonly workerData?: () => unknown;
  readonly heapMb?: number;
  /** The young generation's cap (V8's default is 16 MB a semi-space; with `heapMb`, an eighth of it, 8-64 MB). */
  readonly youngGenerationMb?: number;
  /** Consecutive workers that die before ready after which queued jobs fail with `unavailable`. */
  readonly maxStartFailures?: number;
  /** Stop the workers after this long without work (unset: they stay until close). */
  readonly idleStopMs?: number;
  /** Replace a worker that exits even with nothing queued (the pool keeps its size). */
  readonly keepFull?: boolean;
  /** After close() every job is refused (the embedder); otherwise the next job starts workers again. */
  readonly closeIsFinal?: boolean;
  /** Nothing queued or in flight (the parse pool forgets the counters it answered for). */
  onIdle?(): void;
  /** Jobs a crashed worker held are sent once more to another (grep: a crash costs speed, not results). */
  readonly resendOnCrash?: boolean;
  /** The message for a job. */
  post(payload: T, id: number): unknown;
  /** A message from a worker; the pool's protocol calls `pool.answer` / `pool.ready` from here. */
  onMessage(slot: Slot, msg: M): void;
  timeoutError(job: PoolJob<T, R>, timeoutMs: number): Error;
  crashError(job: PoolJob<T, R>, code: number, failure: string | undefined): Error;
  /** Workers fail to start; `starting`: the first worker of startOne(). */
  unavailableError(why: string, starting: boolean): Error;
  closedError(): Error;
  /** How a worker is asked to stop at close (default: terminate). */
  stop?(worker: Worker): Promise<void>;
}

export class WorkerPool<T, R, M = unknown> {
  private readonly slots = new Set<SlotState<T, R>>();
  private readonly queue: Held<T, R>[] = [];
  private nextId = 1;
  private startFailures = 0;
  private lastFailure = '';
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly starters = new Map<SlotState<T, R>, { resolve: () => void; reject: (err: Error) => void }>();
  /** Workers the pool keeps now: `size` at most, fewer while `resize` asks for fewer. */
  private target: number;
  /** Workers `resize` asked to stop, until they have: close() waits for them too. */
  private readonly stopping = new Set<Promise<void>>();

  constructor(private readonly opts: WorkerPoolOptions<T, R, M>) {
    this.target = Math.max(1, Math.min(opts.size, opts.initialSize ?? opts.size));
  }

  get size(): number {
    return this.opts.size;
  }

  /**
   * Keeps `n` workers (1 to `size`) from now on: more are started at once; idle ones beyond it are
   * asked to stop (as close() asks), busy ones are left to finish. Returns how many still run
   * beyond `n`, so a caller can ask again once they are idle.
   */
  resize(n: number): number {
    this.target = Math.max(1, Math.min(this.opts.size, Math.floor(n)));
    if (this.closed) return 0;
    const stop = this.opts.stop ?? ((w: Worker) => w.terminate().then(() => undefined));
    let extra = this.live() - this.target;
    for (const s of [...this.slots]) {
      if (extra <= 0) break;
      if (s.retired || s.held.size > 0 || !s.ready) continue;
      s.retired = true;
      s.closing = true;
      extra--;
      const done = stop(s.worker)
        .catch(() => undefined)
        .finally(() => {
          this.slots.delete(s);
          this.stopping.delete(done);
        });
      this.stopping.add(done);
    }
    if (this.queue.length > 0 || this.opts.keepFull) while (this.live() < this.target) this.spawn();
    this.dispatch();
    return Math.max(0, extra);
  }

  /** The live worker threads (diagnostics and tests). */
  get workers(): Worker[] {
    return [...this.slots].filter((s) => !s.retired).map((s) => s.worker);
  }

  /** Jobs sent to a worker and not yet answered. */
  get inFlight(): number {
    let n = 0;
    for (const s of this.slots) n += s.held.size;
    return n;
  }

  /** Start attempts have failed too often in a row: callers fall back or fail fast. */
  get unavailable(): boolean {
    return this.startFailures >= (this.opts.maxStartFailures ?? Infinity);
  }

  /** Allows new start attempts after the pool gave up (a caller with work asks again). */
  resetStartFailures(): void {
    this.startFailures = 0;
  }

  /** Starts one worker and resolves once it is ready (or rejects with why it died first). */
  startOne(): Promise<void> {
    return new Promise((resolve, reject) => this.starters.set(this.spawn(), { resolve, reject }));
  }

  /**
   * Stops the workers now when none has work, as the idle timer would later (a pool with
   * `idleStopMs`: its next job starts them again). False when some are busy: they stay.
   */
  stopIdle(): boolean {
    if (this.queue.length > 0 || this.inFlight > 0) return false;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    void this.close();
    return true;
  }

  /** Starts workers up to the pool's size ahead of work. */
  fill(): void {
    if (this.closed) return;
    while (this.live() < this.target) this.spawn();
    this.settle();
  }

  submit(job: PoolJob<T, R>, urgent = false): void {
    if (this.closed) {
      job.reject(this.opts.closedError());
      return;
    }
    const held: Held<T, R> = { job, deadline: job.deadline ?? null, waitingSince: null, timer: null, retried: false };
    if (urgent) this.queue.unshift(held);
    else this.queue.push(held);
    this.wake();
    while (this.live() < this.target) this.spawn();
    this.dispatch();
  }

  /** Called by the protocol when a worker has loaded. */
  ready(slot: Slot): void {
    const s = slot as SlotState<T, R>;
    s.ready = true;
    this.startFailures = 0;
    for (const h of s.held.values()) {
      this.arm(s, h);
      if (this.opts.sequential) break;
    }
    this.starters.get(s)?.resolve();
    this.starters.delete(s);
    this.dispatch();
  }

  /** Called by the protocol with a worker's answer to job `id`. */
  answer(slot: Slot, id: number, outcome: { value: R } | { error: Error }): void {
    const s = slot as SlotState<T, R>;
    const h = s.held.get(id);
    if (!h) return;
    s.held.delete(id);
    if (h.timer) clearTimeout(h.timer);
    const next = this.opts.sequential && s.ready ? s.held.values().next() : null;
    if (next && !next.done) this.arm(s, next.value);
    if ('error' in outcome) h.job.reject(outcome.error);
    else h.job.resolve(outcome.value);
    this.dispatch();
  }

  /** Stops every worker now; what they held is handled as a crash (re-sent where the pool allows). */
  restart(): void {
    for (const s of [...this.slots]) this.retire(s);
  }

  /**
   * Fails what is queued, stops every worker (as `stop` asks: a graceful stop lets a worker finish
   * and answer the job it holds) and then fails what is still in flight.
   */
  async close(): Promise<void> {
    if (this.opts.closeIsFinal) this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const h of this.queue.splice(0)) h.job.reject(this.opts.closedError());
    const slots = [...this.slots].filter((s) => !s.closing);
    for (const s of slots) {
      s.retired = true;
      s.closing = true;
      const starter = this.starters.get(s);
      this.starters.delete(s);
      starter?.reject(this.opts.closedError());
    }
    const stop = this.opts.stop ?? ((w: Worker) => w.terminate().then(() => undefined));
    await Promise.all([...slots.map((s) => stop(s.worker).catch(() => undefined)), ...this.stopping]);
    for (const s of slots) {
      this.slots.delete(s);
      for (const h of s.held.values()) {
        if (h.timer) clearTimeout(h.timer);
        h.job.reject(this.opts.closedError());
      }
      s.held.clear();
    }
  }

  private live(): number {
    let n = 0;
    for (const s of this.slots) if (!s.retired) n++;
    return n;
  }

  private dispatch(): void {
    const per = this.opts.perWorker ?? 1;
    while (this.queue.length > 0) {
      let best: SlotState<T, R> | null = null;
      for (const s of this.slots) {
        if (s.retired || s.held.size >= per || (!s.ready && per === 1)) continue;
        if (!best || s.held.size < best.held.size) best = s;
      }
      if (!best) break;
      const h = this.queue.shift() as Held<T, R>;
      const skipped = h.job.skip?.();
      if (skipped) {
        h.job.reject(skipped);
        continue;
      }
      const id = this.nextId++;
      best.held.set(id, h);
      if (!best.ready) h.waitingSince = Date.now();
      else if (!this.opts.sequential || best.held.size === 1) this.arm(best, h);
      best.worker.ref();
      best.worker.postMessage(this.opts.post(h.job.payload, id));
    }
    this.settle();
  }

  private arm(slot: SlotState<T, R>, h: Held<T, R>): void {
    const ms = h.job.timeoutMs;
    if (ms === undefined || h.timer) return;
    // A deadline of its own starts now; a shared one is moved by the worker's start-up.
    if (h.deadline === null) h.deadline = Date.now() + ms;
    else if (h.waitingSince !== null) h.deadline += Date.now() - h.waitingSince;
    h.waitingSince = null;
    h.timer = setTimeout(() => this.expire(slot, h, ms), Math.max(0, h.deadline - Date.now()));
  }

  /** The job's time is up: it fails with the pool's timeout error and its worker is killed. */
  private expire(slot: SlotState<T, R>, h: Held<T, R>, ms: number): void {
    for (const [id, q] of slot.held) if (q === h) slot.held.delete(id);
    h.timer = null;
    h.job.reject(this.opts.timeoutError(h.job, ms));
    slot.killed = true;
    this.retire(slot);
  }

  private retire(slot: SlotState<T, R>): void {
    if (slot.retired) return;
    slot.retired = true;
    void slot.worker.terminate();
  }

  private spawn(): SlotState<T, R> {
    const { script, eval: isEval } = workerScript(this.opts.callerUrl, this.opts.script, { nice: this.opts.nice });
    const heap = this.opts.heapMb;
    const young = this.opts.youngGenerationMb;
    const resourceLimits: ResourceLimits | undefined = heap
      ? { maxOldGenerationSizeMb: heap, maxYoungGenerationSizeMb: young ?? Math.min(64, Math.max(8, heap / 8)) }
      : young
        ? { maxYoungGenerationSizeMb: young }
        : undefined;
    const data = this.opts.workerData?.();
    const worker = new Worker(script, { eval: isEval, workerData: data, resourceLimits });
    const slot: SlotState<T, R> = {
      worker,
      data,
      ready: !this.opts.handshake,
      held: new Map(),
      retired: false,
      closing: false,
      killed: false,
    };
    this.slots.add(slot);
    worker.on('message', (m: M) => this.opts.onMessage(slot, m));
    worker.on('error', (err) => {
      slot.failure ??= err.message;
    });
    worker.on('exit', (code) => this.exited(slot, code));
    return slot;
  }

  private exited(slot: SlotState<T, R>, code: number): void {
    if (slot.closing || !this.slots.delete(slot)) return;
    const why = slot.failure ?? `exit code ${code}`;
    const held = [...slot.held.values()];
    slot.held.clear();
    const resend: Held<T, R>[] = [];
    // Behind the one it was running (none before it was ready; killed at its deadline: already
    // settled), a sequential worker's jobs never started: they are sent again, untouched.
    if (this.opts.sequential)
      for (const h of held.splice(slot.killed || !slot.ready ? 0 : 1)) {
        if (h.timer) clearTimeout(h.timer);
        resend.push({ ...h, deadline: h.job.deadline ?? null, waitingSince: null, timer: null });
      }
    for (const h of held) {
      if (h.timer) clearTimeout(h.timer);
      h.timer = null;
      if (h.deadline !== null && h.waitingSince === null && Date.now() >= h.deadline) {
        // Its own time ran out as well: the same answer as if its own timer had fired.
        h.job.reject(this.opts.timeoutError(h.job, h.job.timeoutMs ?? 0));
      } else if (this.opts.resendOnCrash && (slot.killed || !h.retried)) {
        // A worker killed for another job's deadline costs its other jobs a resend, never their result
        // (each kill is one job's expiry, so this ends); a crash is resent once.
        if (!slot.killed) h.retried = true;
        resend.push(h);
      } else h.job.reject(this.opts.crashError(h.job, code, slot.failure));
    }
    // Back at the front, in the order they were sent (a resend does not let a later job overtake).
    this.queue.unshift(...resend);
    if (!slot.ready) {
      this.startFailures++;
      this.lastFailure = why;
      const starter = this.starters.get(slot);
      this.starters.delete(slot);
      if (starter) return starter.reject(this.opts.unavailableError(why, true));
      if (this.unavailable) {
        if (this.live() === 0)
          for (const h of this.queue.splice(0)) h.job.reject(this.opts.unavailableError(this.lastFailure, false));
        return;
      }
    }
    if (!this.closed && (this.opts.keepFull || this.queue.length > 0)) {
      while (this.live() < this.target) this.spawn();
    }
    this.dispatch();
  }

  private wake(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const s of this.slots) s.worker.ref();
  }

  /**
   * Pools that stop when idle: workers with nothing to do no longer hold the process, and stop
   * after `idleStopMs`. (The embedder's stay referenced until close: ending a thread inside ONNX
   * Runtime at process exit aborts the process, embed/worker.ts.)
   */
  private settle(): void {
    if (this.opts.idleStopMs === undefined || this.queue.length > 0) return;
    for (const s of this.slots) if (s.held.size === 0) s.worker.unref();
    if (this.inFlight > 0) return;
    this.opts.onIdle?.();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), this.opts.idleStopMs);
    this.idleTimer.unref();
  }
}
