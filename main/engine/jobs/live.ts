import type { FolderSpec } from '../../common/settings.js';
import type { FilterOptions } from '../sources/index.js';
import { WatchBarrier } from './barrier.js';
import { dirCreatedSince } from './new-dirs.js';
import { FolderWatcher } from './watcher.js';

/** Re-subscriptions after a start-up reconcile found directories newer than the subscription. */
const COVERAGE_ROUNDS = 3;

/** What live updates need from the engine. */
export interface LiveTarget {
  folderSpecs(): FolderSpec[];
  addPending(folder: string, paths: string[]): void;
  /** A change only a rescan settles was seen: the folder is stale until that rescan starts. */
  markRescan(folder: string): void;
  applyPending(folder: string): void;
  /** Resolves once the rescan's job has ended (however it ended). */
  rescan(folder: string): Promise<unknown> | void;
  setFailure(folder: string, reason: string | null): void;
  debounceMs(): number;
  /** How often a vanished folder is looked for again (default 5 s). */
  retryMs?(): number;
  filterOptions(): FilterOptions;
  /** A folder of the engine's own where a sentinel file proves the watcher has caught up. */
  barrierDir?(): string;
}

/**
 * Keeps folders fresh while the engine runs: watcher events are collected per folder and applied
 * after a quiet period, so a burst of saves or a `git checkout` becomes one update. A folder that
 * vanished is retried every few seconds (an unplugged drive may come back).
 */
export class LiveUpdates {
  private readonly watcher: FolderWatcher;
  private timers = new Map<string, NodeJS.Timeout>();
  private rescans = new Set<string>();
  private retry = new Map<string, NodeJS.Timeout>();
  private readonly barrier: WatchBarrier | null;
  private closed = false;

  constructor(private readonly target: LiveTarget) {
    this.barrier = target.barrierDir ? new WatchBarrier(target.barrierDir()) : null;
    this.watcher = new FolderWatcher(
      {
        changed: (folder, paths) => {
          target.addPending(folder, paths);
          this.schedule(folder);
        },
        rescan: (folder) => {
          target.markRescan(folder);
          this.rescans.add(folder);
          this.schedule(folder);
        },
        failed: (folder, reason) => {
          target.setFailure(folder, reason);
          this.retryLater(folder);
        },
      },
      () => target.filterOptions(),
    );
  }

  async start(): Promise<void> {
    for (const spec of this.target.folderSpecs()) await this.add(spec);
  }

  /**
   * Starts watching a folder and reconciles it with the index (catches what changed while stopped).
   * Watch first, then rescan, then check the directories the rescan found: a directory created
   * while the native watcher subscribed may never have been watched (its creation event is lost in
   * the subscription's own crawl), so one newer than the subscription makes the watcher subscribe
   * again and the folder reconcile again, a few rounds at most.
   */
  async add(spec: FolderSpec): Promise<void> {
    if (this.closed) return;
    const since = Date.now();
    await this.watcher.watch(spec);
    if (this.closed) return;
    void this.reconcile(spec, since, 0);
  }

  private async reconcile(spec: FolderSpec, since: number, round: number): Promise<void> {
    await this.target.rescan(spec.path);
    if (this.closed || round >= COVERAGE_ROUNDS || !this.target.folderSpecs().some((f) => f.path === spec.path)) return;
    if (!(await dirCreatedSince(spec, this.target.filterOptions(), since).catch(() => false))) return;
    if (this.closed) return;
    const again = Date.now();
    await this.watcher.watch(spec);
    if (!this.closed) await this.reconcile(spec, again, round + 1);
  }

  async remove(folder: string): Promise<void> {
    clearTimeout(this.timers.get(folder));
    clearTimeout(this.retry.get(folder));
    this.timers.delete(folder);
    this.retry.delete(folder);
    this.rescans.delete(folder);
    await this.watcher.unwatch(folder);
  }

  /**
   * Resolves once every file change made before the call has been seen and counted as pending (so
   * `wait_for_fresh` then waits for exactly those). False when that could not be shown in time.
   */
  async caughtUp(timeoutMs: number): Promise<boolean> {
    const ok = this.barrier ? await this.barrier.pass(Date.now() + timeoutMs) : false;
    await this.watcher.settled();
    return ok;
  }

  private schedule(folder: string): void {
    clearTimeout(this.timers.get(folder));
    this.timers.set(folder, setTimeout(() => {
      this.timers.delete(folder);
      if (this.rescans.delete(folder)) this.target.rescan(folder);
      else this.target.applyPending(folder);
    }, this.target.debounceMs()));
  }

  private retryLater(folder: string): void {
    if (this.retry.has(folder)) return;
    this.retry.set(folder, setTimeout(async () => {
      this.retry.delete(folder);
      if (this.closed) return;
      const spec = this.target.folderSpecs().find((f) => f.path === folder);
      if (!spec) return;
      const { stat } = await import('node:fs/promises');
      if ((await stat(folder).catch(() => null))?.isDirectory()) {
        this.target.setFailure(folder, null);
        await this.add(spec);
      } else this.retryLater(folder);
    }, this.target.retryMs?.() ?? 5000));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of [...this.timers.values(), ...this.retry.values()]) clearTimeout(t);
    this.timers.clear();
    this.retry.clear();
    await this.watcher.close();
    await this.barrier?.close();
  }
}
