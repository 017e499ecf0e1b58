/** A folder's `files` rows in the compact shape a file listing needs, read as a stream. */
import type { Table } from '@lancedb/lancedb';
import { sqlIn } from './sql.js';

export interface ListedFileRow {
  path: string;
  rel: string;
  size: number;
  chunks: number;
  embedded: boolean;
  error_code: string;
  error_message: string;
}

export async function folderFileRows(files: Table, folder: string): Promise<ListedFileRow[]> {
  const out: ListedFileRow[] = [];
  const query = files
    .query()
    .where(sqlIn('folder', [folder]))
    .select(['path', 'rel', 'size', 'chunks', 'embedded', 'error_code', 'error_message', 'mtime']);
  for await (const batch of query) {
    for (const r of batch.toArray() as unknown as (ListedFileRow & { mtime: number })[]) {
      // An intent row (mtime -1, no error) only records that a file's chunks are being written.
      if (Number(r.mtime) === -1 && !r.error_code) continue;
      out.push({
        path: String(r.path),
        rel: String(r.rel),
        size: Number(r.size),
        chunks: Number(r.chunks),
        embedded: Boolean(r.embedded),
        error_code: String(r.error_code ?? ''),
        error_message: String(r.error_message ?? ''),
      });
    }
  }
  return out;
}
