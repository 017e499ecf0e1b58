/**
 * Every file and directory a folder's walk left out, with the reason: recorded by each full scan
 * (replacing the last one's list), kept up to date by watcher updates, and persisted beside the
 * index (`<index>/skipped/<folder digest>.json`) so `cairn status` in another process and the next
 * start say the same. Counts per reason are exact; paths are kept up to MAX_LISTED per folder (a
 * photo library can skip a million binaries; the list says when it holds only the first ones).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SKIP_REASONS, isSkipReason, type SkipReason, type SkipSummary } from '../../common/files.js';
import { writeFileAtomic } from '../kernel/atomic-write.js';

export const MAX_LISTED = 20_000;

export interface SkipEntry {
  rel: string;
  reason: SkipReason;
  detail?: string;
  dir?: boolean;
}

interface FolderSkips {
  entries: Map<string, SkipEntry>;
  /** Skips beyond MAX_LISTED, by reason (not listed by path). */
  unlisted: Map<SkipReason, number>;
  scannedAt: number | null;
}

/** The walk's reason strings (sources/walk.ts, inspect.ts, filter.ts) as typed codes. */
export function skipReasonOf(walkReason: string): { reason: SkipReason; detail?: string } {
  const r = walkReason.trim();
  if (r.startsWith('too large'))
    return { reason: 'too_large', detail: r.replace(/^too large\s*/, '').replace(/^\((.*)\)$/, '$1') || undefined };
  const known: Record<string, SkipReason> = {
    binary: 'binary',
    minified: 'minified',
    secret: 'secret',
    ignored: 'ignored',
    excluded: 'excluded',
    'not included': 'not_included',
    'default exclude': 'default_exclude',
    'data folder': 'data_folder',
    'symlink outside the folder': 'symlink_outside',
    'symlink to a path the rules leave out': 'symlink_excluded',
    'symlink loop': 'symlink_loop',
    'broken symlink': 'broken_symlink',
    'not a regular file': 'not_regular',
  };
  const code = known[r];
  if (code) return { reason: code };
  return { reason: 'not_regular', detail: r };
}

/** A full scan's skips, gathered while it walks and made the folder's list when it completes. */
export class ScanSkips {
  readonly entries = new Map<string, SkipEntry>();
  readonly unlisted = new Map<SkipReason, number>();

  add(rel: string, walkReason: string, dir = false): void {
    const { reason, detail } = skipReasonOf(walkReason);
    const key = dir ? `${rel}/` : rel;
    if (this.entries.size >= MAX_LISTED && !this.entries.has(key)) {
      this.unlisted.set(reason, (this.unlisted.get(reason) ?? 0) + 1);
      return;
    }
    this.entries.set(key, { rel: key, reason, ...(detail ? { detail } : {}), ...(dir ? { dir } : {}) });
  }

  count(reason: SkipReason): number {
    let n = this.unlisted.get(reason) ?? 0;
    for (const e of this.entries.values()) if (e.reason === reason) n++;
    return n;
  }
}

interface StoredFile {
  version: 1;
  folder: string;
  scanned_at: number | null;
  unlisted: Partial<Record<SkipReason, number>>;
  items: [string, SkipReason, string?][];
}

export class SkipLog {
  private readonly folders = new Map<string, FolderSkips>();
  private writes = new Map<string, Promise<void>>();

  /** `dir`: where the lists are persisted (null: in memory only). */
  constructor(private readonly dir: string | null) {}

  private file(folder: string): string | null {
    if (!this.dir) return null;
    return join(this.dir, `${createHash('sha1').update(folder).digest('hex').slice(0, 20)}.json`);
  }

  private load(folder: string): FolderSkips {
    const have = this.folders.get(folder);
    if (have) return have;
    const skips: FolderSkips = { entries: new Map(), unlisted: new Map(), scannedAt: null };
    const file = this.file(folder);
    if (file) {
      try {
        const raw = JSON.parse(readFileSync(file, 'utf8')) as StoredFile;
        if (raw?.version === 1 && raw.folder === folder && Array.isArray(raw.items)) {
          for (const [rel, reason, detail] of raw.items) {
            if (typeof rel !== 'string' || !isSkipReason(reason)) continue;
            skips.entries.set(rel, {
              rel,
              reason,
              ...(typeof detail === 'string' && detail ? { detail } : {}),
              ...(rel.endsWith('/') ? { dir: true } : {}),
            });
          }
          for (const [reason, n] of Object.entries(raw.unlisted ?? {}))
            if (isSkipReason(reason) && typeof n === 'number') skips.unlisted.set(reason, n);
          skips.scannedAt = typeof raw.scanned_at === 'number' ? raw.scanned_at : null;
        }
      } catch {
        // No list yet (never scanned by this version), or unreadable: the next full scan writes one.
      }
    }
    this.folders.set(folder, skips);
    return skips;
  }

  /** A completed full scan: its list replaces the folder's. */
  async commitScan(folder: string, scan: ScanSkips): Promise<void> {
    this.folders.set(folder, { entries: scan.entries, unlisted: scan.unlisted, scannedAt: Date.now() });
    await this.persist(folder);
  }

  /** A watcher update found this path skipped. */
  note(folder: string, rel: string, walkReason: string): void {
    const skips = this.load(folder);
    const { reason, detail } = skipReasonOf(walkReason);
    if (skips.entries.size >= MAX_LISTED && !skips.entries.has(rel))
      skips.unlisted.set(reason, (skips.unlisted.get(reason) ?? 0) + 1);
    else skips.entries.set(rel, { rel, reason, ...(detail ? { detail } : {}) });
    void this.persist(folder);
  }

  /** A path that is indexed now, or gone: no longer a skip. */
  clear(folder: string, rels: string[]): void {
    const skips = this.load(folder);
    let changed = false;
    for (const rel of rels) changed = skips.entries.delete(rel) || changed;
    if (changed) void this.persist(folder);
  }

  async forget(folder: string): Promise<void> {
    this.folders.delete(folder);
    const file = this.file(folder);
    await (this.writes.get(folder) ?? Promise.resolve());
    if (file) await rm(file, { force: true }).catch(() => undefined);
  }

  summary(folder: string): SkipSummary | null {
    const skips = this.load(folder);
    if (skips.scannedAt === null && skips.entries.size === 0) return null;
    const by: Partial<Record<SkipReason, number>> = {};
    for (const [reason, n] of skips.unlisted) by[reason] = (by[reason] ?? 0) + n;
    for (const e of skips.entries.values()) by[e.reason] = (by[e.reason] ?? 0) + 1;
    const ordered: Partial<Record<SkipReason, number>> = {};
    for (const reason of Object.keys(SKIP_REASONS) as SkipReason[]) if (by[reason]) ordered[reason] = by[reason];
    return {
      total: Object.values(ordered).reduce((a, b) => a + (b ?? 0), 0),
      by_reason: ordered,
      scanned_at: skips.scannedAt === null ? null : new Date(skips.scannedAt).toISOString(),
    };
  }

  /** The skips kept by path, and whether that is all of them. */
  list(folder: string): { entries: SkipEntry[]; complete: boolean } {
    const skips = this.load(folder);
    return { entries: [...skips.entries.values()], complete: skips.unlisted.size === 0 };
  }

  /** Writes are chained per folder, each atomic (temp file, rename); best effort, like a status marker. */
  private persist(folder: string): Promise<void> {
    const file = this.file(folder);
    if (!file || !this.dir) return Promise.resolve();
    const dir = this.dir;
    const next = (this.writes.get(folder) ?? Promise.resolve())
      .then(async () => {
        const skips = this.folders.get(folder);
        if (!skips) return;
        const body: StoredFile = {
          version: 1,
          folder,
          scanned_at: skips.scannedAt,
          unlisted: Object.fromEntries(skips.unlisted),
          items: [...skips.entries.values()].map((e) => (e.detail ? [e.rel, e.reason, e.detail] : [e.rel, e.reason])),
        };
        await mkdir(dir, { recursive: true, mode: 0o700 });
        await writeFileAtomic(file, JSON.stringify(body), { mode: 0o600 });
      })
      .catch(() => undefined);
    this.writes.set(folder, next);
    return next;
  }

  /** Resolves when every write started so far has ended (close, tests). */
  async flushed(): Promise<void> {
    await Promise.all(this.writes.values());
  }
}

/** Creates the folder for the lists (sync: the engine's constructor). */
export function skipLogDir(indexDir: string): string {
  const dir = join(indexDir, 'skipped');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // Created on the first write instead.
  }
  return dir;
}
