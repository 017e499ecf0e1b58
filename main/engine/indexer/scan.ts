import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { FileRow } from '../index/schema.js';
import { sqlIn } from '../index/sql.js';
import type { IndexStore } from '../index/store.js';
import type { SourceFile } from '../types.js';

/** Paths per `IN (...)` lookup of stored rows: one scan of the `files` table answers this many. */
const LOOKUP_PATHS = 1000;

/**
 * The paths a scan has walked, as 72-bit digests (about 50 bytes a path in a JS Set, instead of the
 * path and its row): what the walk did not see is pruned afterwards. Two paths of one folder share
 * a digest with odds near n²/2⁷³ (1e-11 at a million files); that would only keep a deleted file's
 * rows until it changes again, never lose anything.
 */
export class SeenPaths {
  private readonly set = new Set<string>();

  private key(path: string): string {
    return createHash('sha1').update(path).digest('base64').slice(0, 12);
  }

  add(path: string): void {
    this.set.add(this.key(path));
  }

  has(path: string): boolean {
    return this.set.has(this.key(path));
  }

  get size(): number {
    return this.set.size;
  }
}

/** The stored rows of just these paths (a scan compares one batch at a time, never the folder). */
export async function storedRows(store: IndexStore, paths: string[]): Promise<Map<string, FileRow>> {
  const out = new Map<string, FileRow>();
  for (let i = 0; i < paths.length; i += LOOKUP_PATHS) {
    const rows = (await store.files.query().where(sqlIn('path', paths.slice(i, i + LOOKUP_PATHS))).toArray()) as FileRow[];
    for (const r of rows) out.set(r.path, { ...r, embedded: Boolean(r.embedded) });
  }
  return out;
}

/** Streams a folder's stored paths in the table's own batches, so pruning holds no full list. */
export async function* storedPaths(store: IndexStore, folder: string): AsyncGenerator<string[]> {
  for await (const batch of store.files.query().where(sqlIn('folder', [folder])).select(['path'])) {
    const column = batch.getChild('path');
    yield column ? Array.from(column, (v) => String(v)) : [];
  }
}

/**
 * Files whose size or mtime moved since they were listed: they changed while (or after) being read,
 * so what was stored for them may be an older version than the disk holds, or a torn read.
 */
export async function movedSince(files: SourceFile[]): Promise<SourceFile[]> {
  const moved: SourceFile[] = [];
  for (const f of files) {
    const st = await stat(f.path).catch(() => null);
    // Gone or no longer a file: the next walk or watcher event settles it, not a re-read.
    if (!st?.isFile()) continue;
    if (st.size !== f.size || st.mtimeMs !== f.mtimeMs) moved.push({ ...f, size: st.size, mtimeMs: st.mtimeMs });
  }
  return moved;
}
