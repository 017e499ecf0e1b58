import { stat } from 'node:fs/promises';
import type { FolderSpec } from '../../common/settings.js';
import type { FilterCache } from '../sources/index.js';
import { WatchBarrier } from './barrier.js';
import type { FolderChanges } from './changes.js';
import { dirCreatedSince } from './new-dirs.js';
import { FolderWatcher } from './watcher.js';

/** Re-subscriptions after a start-up reconcile found directories newer than the subscription. */
const COVERAGE_ROUNDS = 3;

export interface LiveOptions {
  folders(): FolderSpec[];
  /** Where what the watcher sees goes (and the watch's health). */
  changes: FolderChanges;
  filters: FilterCache;
  /** Walks the folder and brings its index in line; resolves once that job has ended (however). */
  reconcile(folder: string): Promise<unknown>;
  /** How often a folder that vanished or cannot be watched is tried again (default 5 s). */
  retryMs(): number;
  /** A folder of the engine's own where a sentinel file proves the watcher has caught up. */
  barrierDir?: string;
}

/**
 * Keeps folders fresh while the engine runs: one native subscription per folder, whose events go to
 * FolderChanges (which debounces and applies them). A folder that vanished or cannot be subscribed
 * is tried again every few seconds (an unplugged drive may come back); its watch error is cleared
 * only by a subscription that succeeds, and only then is it reconciled again.
 */
export class LiveUpdates {
  private readonly watcher: FolderWatcher;
  private retry = new Map<string, NodeJS.Timeout>();
  private readonly barrier: WatchBarrier | null;
  private closed = false;

  constructor(private readonly opts: LiveOptions) {
    this.barrier = opts.barrierDir ? new WatchBarrier(opts.barrierDir) : null;
    this.watcher = new FolderWatcher(
      {
        changed: (folder, paths) => opts.changes.add(folder, paths),
        rescan: (folder) => opts.changes.requestRescan(folder),
        failed: (folder, reason) => {
          opts.changes.setWatchError(folder, reason);
          this.retryLater(folder);
        },
      },
      opts.filters,
    );
    opts.changes.keepFresh();
  }

  async start(): Promise<void> {
    for (const spec of this.opts.folders()) await this.add(spec);
  }

  /**
   * Starts watching a folder and reconciles it with the index (catches what changed while stopped),
   * also when the subscription failed: the index is then brought up to date once, and the folder
   * stays in error for its watch until a retry subscribes.
   */
  async add(spec: FolderSpec): Promise<void> {
    await this.subscribe(spec, true);
  }

  /**
   * Watch first, then rescan, then check the directories the rescan found: a directory created
   * while the native watcher subscribed may never have been watched (its creation event is lost in
   * the subscription's own crawl), so one newer than the subscription makes the watcher subscribe
   * again and the folder reconcile again, a few rounds at most.
   */
  private async subscribe(spec: FolderSpec, reconcileAnyway: boolean): Promise<void> {
    if (this.closed) return;
    const since = Date.now();
    const ok = await this.watcher.watch(spec);
    if (this.closed) return;
    if (ok) this.opts.changes.setWatchError(spec.path, null);
    if (ok || reconcileAnyway) void this.reconcile(spec, since, 0);
  }

  private async reconcile(spec: FolderSpec, since: number, round: number): Promise<void> {
    await this.opts.reconcile(spec.path);
    if (this.closed || round >= COVERAGE_ROUNDS || !this.opts.folders().some((f) => f.path === spec.path)) return;
    if (!(await dirCreatedSince(spec, this.opts.filters.get(spec), since).catch(() => false))) return;
    if (this.closed) return;
    const again = Date.now();
    if (!(await this.watcher.watch(spec))) return;
    if (!this.closed) await this.reconcile(spec, again, round + 1);
  }

  async remove(folder: string): Promise<void> {
    clearTimeout(this.retry.get(folder));
    this.retry.delete(folder);
    this.opts.filters.forget(folder);
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

  private retryLater(folder: string): void {
    if (this.retry.has(folder) || this.closed) return;
    this.retry.set(
      folder,
      setTimeout(async () => {
        this.retry.delete(folder);
        if (this.closed) return;
        const spec = this.opts.folders().find((f) => f.path === folder);
        if (!spec) return;
        // A failed subscription reports again (and schedules the next try) through `failed`.
        if ((await stat(folder).catch(() => null))?.isDirectory()) await this.subscribe(spec, false);
        else this.retryLater(folder);
      }, this.opts.retryMs()),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.retry.values()) clearTimeout(t);
    this.retry.clear();
    await this.watcher.close();
    await this.barrier?.close();
  }
}
