import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobState } from '../../common/status.js';
import { writeFileAtomic } from '../kernel/atomic-write.js';

/** What applies a folder's due changes: a job that takes them (FolderSync.applyChanges). */
export type ApplyChanges = (folder: string) => { ended(): Promise<JobState> } | null;

export interface ChangesOptions {
  /** Holds `unapplied.json`: folders whose changes were seen and never applied (a stop, a full disk). */
  indexDir?: string;
  debounceMs: () => number;
  apply: ApplyChanges;
}

/** First and last delay before a job that failed is tried again while serving. */
const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 60_000;

/**
 * The one owner of what changed in each folder and is not in the index yet: the paths the watcher
 * saw, whether only a rescan settles it (a new directory, an ignore file, changes handed back by a
 * full sync that did not complete), the quiet period before they are applied, the retry of a job
 * that failed, and the watch's own health. Index health (a sync that failed) is FolderStates'; the
 * two are kept apart so that a folder whose watch keeps failing stays in error instead of reading
 * fresh after every successful sync.
 */
export class FolderChanges {
  private readonly pending = new Map<string, Set<string>>();
  private readonly rescans = new Set<string>();
  private readonly watchErrors = new Map<string, string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly retries = new Map<string, { timer: NodeJS.Timeout; delay: number }>();
  /** Serving: a job that failed is tried again (a one-shot command reports the failure instead). */
  private retrying = false;
  private closed = false;
  private markerWrite: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ChangesOptions) {
    for (const f of this.readMarker()) this.rescans.add(f);
  }

  /** Files the watcher saw change; applied after the folder has been quiet for the debounce period. */
  add(folder: string, paths: string[]): void {
    this.addPending(folder, paths);
    this.schedule(folder);
  }

  /** Something only a walk settles: the folder is stale until a rescan takes it. */
  requestRescan(folder: string): void {
    this.rescans.add(folder);
    this.schedule(folder);
  }

  /** Files may have changed while nothing watched (start-up): a rescan is due, none is scheduled. */
  requireRescan(folders: string[]): void {
    for (const f of folders) this.rescans.add(f);
  }

  hasRescan(folder: string): boolean {
    return this.rescans.has(folder);
  }

  /** The changed paths seen so far; a full sync (`withRescan`) also takes a requested rescan. */
  take(folder: string, withRescan = false): string[] {
    const set = this.pending.get(folder);
    this.pending.delete(folder);
    if (withRescan) this.rescans.delete(folder);
    return set ? [...set] : [];
  }

  pendingCount(folder: string): number {
    return (this.pending.get(folder)?.size ?? 0) + (this.rescans.has(folder) ? 1 : 0);
  }

  /**
   * A job that did not complete hands back what it took: its paths are pending again and a rescan
   * it took is due again, so no intent is lost with the job. While serving (`retry`), the folder is
   * tried again with a growing delay (a full disk: once space is freed, every edit made meanwhile
   * lands without waiting for one more edit).
   */
  giveBack(folder: string, paths: string[], rescan: boolean, retry: boolean): void {
    if (paths.length > 0) this.addPending(folder, paths);
    if (rescan) this.rescans.add(folder);
    void this.saveMarker();
    if (retry && this.retrying && !this.closed) this.retryLater(folder);
  }

  /** A full sync of the folder completed: a marker naming it is out of date. */
  synced(folder: string): void {
    if (this.readMarker().includes(folder)) void this.saveMarker();
  }

  /** Live updates follow the folders: failed jobs are retried from now on. */
  keepFresh(): void {
    this.retrying = true;
  }

  watchError(folder: string): string | undefined {
    return this.watchErrors.get(folder);
  }

  setWatchError(folder: string, reason: string | null): void {
    if (reason) this.watchErrors.set(folder, reason);
    else this.watchErrors.delete(folder);
  }

  /** The folder's index was dropped: what was pending for it went with it. */
  clearIntents(folder: string): void {
    this.pending.delete(folder);
    this.rescans.delete(folder);
  }

  /** The folder is no longer indexed. */
  forget(folder: string): void {
    clearTimeout(this.timers.get(folder));
    clearTimeout(this.retries.get(folder)?.timer);
    this.timers.delete(folder);
    this.retries.delete(folder);
    this.clearIntents(folder);
    this.watchErrors.delete(folder);
  }

  private addPending(folder: string, paths: string[]): void {
    const set = this.pending.get(folder) ?? new Set<string>();
    for (const p of paths) set.add(p);
    this.pending.set(folder, set);
  }

  private schedule(folder: string): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(folder));
    this.timers.set(
      folder,
      setTimeout(() => {
        this.timers.delete(folder);
        this.opts.apply(folder);
      }, this.opts.debounceMs()),
    );
  }

  private retryLater(folder: string): void {
    const prev = this.retries.get(folder);
    if (prev) clearTimeout(prev.timer);
    const delay = Math.min(RETRY_MAX_MS, prev ? prev.delay * 2 : RETRY_FIRST_MS);
    const timer = setTimeout(() => {
      if (this.closed) return;
      // A success ends the backoff; a failure hands back again and doubles it.
      void this.opts
        .apply(folder)
        ?.ended()
        .then((state) => {
          if (state === 'done' && this.retries.get(folder)?.timer === timer) this.retries.delete(folder);
        });
    }, delay);
    timer.unref();
    this.retries.set(folder, { timer, delay });
  }

  private markerFile(): string | null {
    return this.opts.indexDir ? join(this.opts.indexDir, 'unapplied.json') : null;
  }

  private readMarker(): string[] {
    const file = this.markerFile();
    if (!file) return [];
    try {
      const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  /**
   * The next process starts these folders stale with a rescan due, instead of reading the index as
   * fresh. Best effort (the disk may be the full one): written again at the next change and at close.
   */
  saveMarker(): Promise<void> {
    const file = this.markerFile();
    if (!file) return Promise.resolve();
    const folders = [
      ...new Set([...this.rescans, ...[...this.pending].filter(([, s]) => s.size > 0).map(([f]) => f)]),
    ].sort();
    if (folders.length === 0 && this.readMarker().length === 0) return this.markerWrite;
    this.markerWrite = this.markerWrite
      .then(async () => {
        await writeFileAtomic(file, JSON.stringify(folders));
      })
      .catch(() => undefined);
    return this.markerWrite;
  }

  /** Stops timers; what is pending stays, for the marker written at close. */
  close(): void {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    for (const r of this.retries.values()) clearTimeout(r.timer);
    this.timers.clear();
    this.retries.clear();
  }
}
