import type { SkipSummary } from '../../common/files.js';
import type { FolderStatus } from '../../common/status.js';
import type { Freshness } from '../../common/search.js';
import type { FolderSpec } from '../../common/settings.js';
import type { IndexStore } from '../index/store.js';
import type { JobQueue } from '../jobs/queue.js';
import type { FolderChanges } from '../watch/changes.js';

/**
 * Per-folder truth for status and for every hit's freshness: counts come from the store (which
 * recounts a folder on each write), changes not applied yet and the watch's health from
 * FolderChanges, state from the running jobs, and the index's own health (the last sync's failure)
 * from here.
 */
export class FolderStates {
  /** Why the folder's last indexing work failed (index health; the watch's is FolderChanges'). */
  private failures = new Map<string, string>();
  /** Folders a full sync completed for in this process: an empty one is then fresh, not unknown. */
  private synced = new Set<string>();
  /** When the last full sync of each folder finished here: the index was checked up to then. */
  private syncedAt = new Map<string, number>();
  /** Serving: no folder is fresh before a reconcile since start finished (files change while stopped). */
  private reconcileFirst = false;

  constructor(
    private readonly store: IndexStore,
    private readonly jobs: JobQueue,
    private readonly changes: FolderChanges,
    private readonly secretsExcluded: (folder: string) => number | null = () => null,
    private readonly skipped: (folder: string) => SkipSummary | null = () => null,
  ) {}

  /** Serving mode: every folder waits for its start-up reconcile before it reads fresh. */
  requireReconcile(folders: string[]): void {
    this.reconcileFirst = true;
    this.changes.requireRescan(folders.filter((f) => !this.synced.has(f)));
  }

  forget(folder: string): void {
    this.failures.delete(folder);
    this.synced.delete(folder);
    this.syncedAt.delete(folder);
  }

  markSynced(folder: string): void {
    this.synced.add(folder);
    this.syncedAt.set(folder, Date.now());
    this.changes.synced(folder);
  }

  setFailure(folder: string, reason: string | null): void {
    if (reason) this.failures.set(folder, reason);
    else this.failures.delete(folder);
  }

  /** The index's failure first (it names what to fix), else the watch's. */
  private reason(folder: string): string | undefined {
    return this.failures.get(folder) ?? this.changes.watchError(folder);
  }

  freshness(folder: string): Freshness {
    const c = this.store.folderCounts(folder);
    const job = this.jobs.active(folder);
    const failure = this.reason(folder);
    const pending = this.changes.pendingCount(folder);
    // A folder with nothing in the index that no sync has confirmed empty was never indexed.
    const unknown =
      !c || (c.rows === 0 && !this.synced.has(folder)) || (this.reconcileFirst && !this.synced.has(folder));
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
      skipped: this.skipped(spec.path),
      text_only: spec.text_only === true,
      state: f.state,
      files: c?.files ?? 0,
      chunks: c?.chunks ?? 0,
      embedded_chunks: c?.embedded ?? 0,
      file_errors: c?.errorCount ?? 0,
      errors: c?.errors ?? [],
      updated_at: f.updated_at,
      freshness: f,
    };
    const failure = this.reason(spec.path);
    if (failure) s.reason = failure;
    const watchError = this.changes.watchError(spec.path);
    if (watchError) s.watch_error = watchError;
    if (job) s.progress = job.info().progress;
    return s;
  }
}

function updatedAt(written: number | null, synced: number | null): string | null {
  const t = Math.max(written ?? 0, synced ?? 0);
  return t > 0 ? new Date(t).toISOString() : null;
}
