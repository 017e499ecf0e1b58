import watcher, { type AsyncSubscription, type Event } from '@parcel/watcher';
import { stat } from 'node:fs/promises';
import type { FolderSpec } from '../../common/settings.js';
import { DEFAULT_EXCLUDED_DIRS, IGNORE_FILE_NAMES, type FilterCache } from '../sources/index.js';
import { fsPath } from '../kernel/path-bytes.js';
import { exactPaths } from './lossy-names.js';

export interface WatchSink {
  /** Files changed under a folder (created, updated or deleted), already filtered. */
  changed(folder: string, paths: string[]): void;
  /** Something only a rescan can settle: a new or removed directory, an ignore file, an overflow. */
  rescan(folder: string): void;
  /** The folder itself vanished or cannot be watched. */
  failed(folder: string, reason: string): void;
}

/**
 * Native file watching (inotify / FSEvents / ReadDirectoryChangesW via @parcel/watcher), one
 * subscription per folder. Events pass the folder's filter here so ignored churn (build output,
 * node_modules) never wakes the indexer; debouncing is FolderChanges'.
 */
export class FolderWatcher {
  private subs = new Map<string, AsyncSubscription>();
  /** Event batches still being sorted (each stats its paths): not yet counted as pending. */
  private inflight = new Set<Promise<void>>();
  /** Set when close() begins: a subscription that completes after it is undone at once. */
  private closed = false;

  constructor(
    private readonly sink: WatchSink,
    private readonly filters: FilterCache,
  ) {}

  /** True once the folder is subscribed; false when it could not be (the sink heard why). */
  async watch(spec: FolderSpec): Promise<boolean> {
    if (this.closed) return false;
    await this.unwatch(spec.path);
    try {
      const sub = await watcher.subscribe(
        spec.path,
        (err, events) => {
          if (err) {
            this.sink.failed(spec.path, err.message);
            return;
          }
          const p = this.dispatch(spec, events).finally(() => this.inflight.delete(p));
          this.inflight.add(p);
        },
        { ignore: [...DEFAULT_EXCLUDED_DIRS].map((d) => `**/${d}`) },
      );
      // close() ran while this subscribed (or another watch of the folder won): nobody may keep it.
      if (this.closed || this.subs.has(spec.path)) {
        await sub.unsubscribe().catch(() => undefined);
        return !this.closed;
      }
      this.subs.set(spec.path, sub);
      return true;
    } catch (err) {
      this.sink.failed(spec.path, `the folder cannot be watched: ${(err as Error).message}`);
      return false;
    }
  }

  private async dispatch(spec: FolderSpec, events: Event[]): Promise<void> {
    const filter = this.filters.get(spec);
    const files: string[] = [];
    let rescan = false;
    for (const e of await this.exact(spec, events)) {
      if (e === 'rescan') {
        rescan = true;
        continue;
      }
      const rel = e.path
        .slice(spec.path.length)
        .replace(/^[\\/]+/, '')
        .split('\\')
        .join('/');
      if (rel === '') {
        if (e.type === 'delete') this.sink.failed(spec.path, 'the folder was removed or unmounted');
        // The folder itself changed (its mode: chmod 000, or back): a rescan finds out whether it
        // can still be listed, and puts the folder in error, or back to fresh.
        else rescan = true;
        continue;
      }
      const name = rel.split('/').pop() ?? '';
      if ((IGNORE_FILE_NAMES as readonly string[]).includes(name)) {
        this.filters.invalidate(spec.path);
        rescan = true;
        continue;
      }
      if (e.type === 'delete') {
        // A deleted path may have been a file or a whole directory; the indexer knows which.
        files.push(e.path);
        if (!/\.[^/]+$/.test(name)) rescan = true;
        continue;
      }
      const st = await stat(fsPath(e.path)).catch(() => null);
      if (!st) {
        files.push(e.path);
        continue;
      }
      if (st.isDirectory()) {
        // A burst like `mkdir -p a/b && touch a/b/f` may arrive as the top folder only.
        if (filter.accepts(rel, true)) rescan = true;
        continue;
      }
      if (filter.accepts(rel, false)) files.push(e.path);
    }
    if (files.length > 0) this.sink.changed(spec.path, files);
    if (rescan) this.sink.rescan(spec.path);
  }

  /**
   * The events with each lossy path (a name that is not UTF-8 arrives with U+FFFD) replaced by the
   * exact paths it stands for; 'rescan' where they cannot be known: a deleted file's old bytes are
   * not on the disk to look up, so the rescan finds which indexed path is gone.
   */
  private async exact(spec: FolderSpec, events: Event[]): Promise<(Event | 'rescan')[]> {
    if (!events.some((e) => e.path.includes('\ufffd'))) return events;
    const out: (Event | 'rescan')[] = [];
    for (const e of events) {
      if (!e.path.includes('\ufffd')) {
        out.push(e);
        continue;
      }
      const paths = e.type === 'delete' ? null : await exactPaths(spec.path, e.path);
      if (paths) for (const path of paths) out.push({ ...e, path });
      else out.push('rescan');
    }
    return out;
  }

  /** Resolves once every batch delivered so far has reached the sink. */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  async unwatch(folder: string): Promise<void> {
    const sub = this.subs.get(folder);
    this.subs.delete(folder);
    await sub?.unsubscribe().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const f of [...this.subs.keys()]) await this.unwatch(f);
  }
}
