import type { Table } from '@lancedb/lancedb';
import type { FileError } from '../../common/status.js';
import { sqlIn } from './sql.js';

/** What status and freshness show of one folder, mirrored from its rows in the `files` table. */
export interface FolderCounts {
  files: number;
  chunks: number;
  embedded: number;
  errors: FileError[];
  errorCount: number;
  updatedAt: number | null;
  /** Rows of any kind (files and per-file errors): none means never indexed, or empty. */
  rows: number;
}

const SHOWN_ERRORS = 50;

export function emptyCounts(): FolderCounts {
  return { files: 0, chunks: 0, embedded: 0, errors: [], errorCount: 0, updatedAt: null, rows: 0 };
}

interface CountedRow {
  path: string;
  chunks: number;
  embedded: boolean;
  error_code: string;
  error_message: string;
  indexed_at: number;
  mtime: number;
}

/**
 * Counts a folder's rows batch by batch as the table streams them: a folder of any size costs one
 * Arrow batch here, also while a job writes every second.
 */
export async function countFolder(files: Table, folder: string): Promise<FolderCounts> {
  const c = emptyCounts();
  const query = files
    .query()
    .where(sqlIn('folder', [folder]))
    .select(['path', 'chunks', 'embedded', 'error_code', 'error_message', 'indexed_at', 'mtime']);
  for await (const batch of query) {
    for (const r of batch.toArray() as unknown as CountedRow[]) {
      c.rows++;
      // An intent row (mtime -1) only records that a file's chunks are being written: not indexed yet.
      if (Number(r.mtime) === -1 && !r.error_code) continue;
      if (r.error_code) {
        c.errorCount++;
        if (c.errors.length < SHOWN_ERRORS)
          c.errors.push({ path: String(r.path), code: String(r.error_code), message: String(r.error_message) });
        continue;
      }
      c.files++;
      c.chunks += Number(r.chunks);
      if (r.embedded) c.embedded += Number(r.chunks);
      c.updatedAt = Math.max(c.updatedAt ?? 0, Number(r.indexed_at));
    }
  }
  return c;
}
