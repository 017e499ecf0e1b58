import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderStatus } from '../common/status.js';
import type { Freshness } from '../common/search.js';
import type { FolderSpec } from '../common/settings.js';
import type { IndexStore } from './index/store.js';
import type { JobQueue } from './jobs/queue.js';

/**
 * Per-folder truth for status and for every hit's freshness: counts come from the store (which
 * recounts a folder on each write), state from the running jobs, pending watcher changes and the
 * folder's own health.
 */
export class FolderStates {
  private pending = new Map<string, Set<string>>();
  private failures = new Map<string, string>();
  /** Folders the watcher asked to rescan (a new directory, an ignore file): stale until a sync starts. */
  private rescans = new Set<string>();
  /** Folders a full sync completed for in this process: an empty one is then fresh, not unknown. */
  private synced = new Set<string>();
  /** When the last full sync of each folder finished here: the index was checked up to then. */
  private syncedAt = new Map<string, number>();
  /** Serving: no folder is fresh before a reconcile since start finished (files change while stopped). */
  private reconcileFirst = false;
  private markerWrite: Promise<void> = Promise.resolve();

  /**
   * `indexDir` holds the marker of folders whose intents were handed back and never applied (a job
   * that failed on a full disk, a stop with changes pending): the next process starts them stale
   * with a rescan due, instead of reading the index as fresh.
   */
  constructor(
    private readonly store: IndexStore,
    private readonly jobs: JobQueue,
    private readonly indexDir?: string,
    private readonly secretsExcluded: (folder: string) => number | null = () => null,
  ) {
    for (const f of this.readMarker()) this.rescans.add(f);
  }

  private markerFile(): string | null {
    return this.indexDir ? join(this.indexDir, 'unapplied.json') : null;
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

  /** Best effort (the disk may be the full one): written again at the next change and at close. */
  saveMarker(): Promise<void> {
    const file = this.markerFile();
    if (!file) return Promise.resolve();
    const folders = [...new Set([...this.rescans, ...[...this.pending].filter(([, s]) => s.size > 0).map(([f]) => f)])].sort();
    if (folders.length === 0 && this.readMarker().length === 0) return this.markerWrite;
    this.markerWrite = this.markerWrite
      .then(async () => {
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, JSON.stringify(folders));
        await rename(tmp, file);
      })
      .catch(() => undefined);
    return this.markerWrite;
  }

  /** Serving mode: every folder waits for its start-up reconcile before it reads fresh. */
  requireReconcile(folders: string[]): void {
    this.reconcileFirst = true;
    for (const f of folders) if (!this.synced.has(f)) this.rescans.add(f);
  }

  forget(folder: string): void {
    this.pending.delete(folder);
    this.failures.delete(folder);
    this.rescans.delete(folder);
    this.synced.delete(folder);
    this.syncedAt.delete(folder);
  }

  markSynced(folder: string): void {
    this.synced.add(folder);
    this.syncedAt.set(folder, Date.now());
    if (this.readMarker().includes(folder)) void this.saveMarker();
  }

  /**
   * A job that did not complete (failed, cancelled) hands back what it took: its paths become
   * pending again and a rescan it took is due again, so no intent is lost with the job.
   */
  giveBack(folder: string, paths: string[], rescan: boolean): void {
    if (paths.length > 0) this.addPending(folder, paths);
    if (rescan) this.rescans.add(folder);
    void this.saveMarker();
  }

  hasRescan(folder: string): boolean {
    return this.rescans.has(folder);
  }

  addPending(folder: string, paths: string[]): void {
    const set = this.pending.get(folder) ?? new Set<string>();
    for (const p of paths) set.add(p);
    this.pending.set(folder, set);
  }

  markRescan(folder: string): void {
    this.rescans.add(folder);
  }

  /** The changed paths seen so far; a full sync (`withRescan`) also covers a requested rescan. */
  takePending(folder: string, withRescan = false): string[] {
    const set = this.pending.get(folder);
    this.pending.delete(folder);
    if (withRescan) this.rescans.delete(folder);
    return set ? [...set] : [];
  }

  pendingCount(folder: string): number {
    return (this.pending.get(folder)?.size ?? 0) + (this.rescans.has(folder) ? 1 : 0);
  }

  setFailure(folder: string, reason: string | null): void {
    if (reason) this.failures.set(folder, reason);
    else this.failures.delete(folder);
  }

  freshness(folder: string): Freshness {
    const c = this.store.folderCounts(folder);
    const job = this.jobs.active(folder);
    const failure = this.failures.get(folder);
    const pending = this.pendingCount(folder);
    // A folder with nothing in the index that no sync has confirmed empty was never indexed.
    const unknown = !c || (c.rows === 0 && !this.synced.has(folder)) || (this.reconcileFirst && !this.synced.has(folder));
    const state = job ? 'indexing' : failure ? 'error' : pending > 0 || unknown ? 'possibly_stale' : 'fresh';
    return {
      state,
      vector_coverage: c && c.chunks > 0 ? Math.round((c.embedded / c.chunks) * 1000) / 1000 : c ? 1 : 0,
      // The later of the last file written and the last sync that finished (one that found
      // nothing to change, or only computed vectors, still brought the folder up to date).
      updated_at: updatedAt(c?.updatedAt ?? null, this.syncedAt.get(folder) ?? null),
      pending_changes: pending,
    };
  }

  status(spec: FolderSpec): FolderStatus {
    const c = this.store.folderCounts(spec.path);
    const f = this.freshness(spec.path);
    const job = this.jobs.active(spec.path);
    const s: FolderStatus = {
      path: spec.path,
      include: spec.include ?? [],
      exclude: spec.exclude ?? [],
      include_secrets: spec.include_secrets === true,
      secrets_excluded: this.secretsExcluded(spec.path),
      state: f.state,
      files: c?.files ?? 0,
      chunks: c?.chunks ?? 0,
      embedded_chunks: c?.embedded ?? 0,
      file_errors: c?.errorCount ?? 0,
      errors: c?.errors ?? [],
      updated_at: f.updated_at,
      freshness: f,
    };
    const failure = this.failures.get(spec.path);
    if (failure) s.reason = failure;
    if (job) s.progress = job.info().progress;
    return s;
  }
}

function updatedAt(written: number | null, synced: number | null): string | null {
  const t = Math.max(written ?? 0, synced ?? 0);
  return t > 0 ? new Date(t).toISOString() : null;
}
