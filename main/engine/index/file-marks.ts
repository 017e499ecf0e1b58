import type { Table } from '@lancedb/lancedb';
import type { FileRow } from './schema.js';
import { retryOnConflict } from './retry.js';
import { forWrite } from './arrow-write.js';

/** Writes to the `files` table that change marks on rows, not what a file holds (IndexStore's callers). */

/** New change times / inodes of files whose content was found unchanged. */
export async function restat(files: Table, rows: FileRow[]): Promise<void> {
  if (rows.length === 0) return;
  await retryOnConflict(async () =>
    files
      .mergeInsert('path')
      .whenMatchedUpdateAll()
      .execute(await forWrite(files, rows)),
  );
}

/** Sets `embedded` on the rows matching `where` (paths of one pass, or a whole folder). */
export async function setEmbedded(files: Table, where: string, embedded: boolean): Promise<void> {
  await retryOnConflict(() => files.update({ where, values: { embedded } }));
}

/**
 * Rows that always count as changed (mtime -1, no hash). Fresh paths have no row to update: an
 * append, not a merge over the whole table.
 */
export async function addIntents(files: Table, rows: FileRow[]): Promise<void> {
  if (rows.length === 0) return;
  await retryOnConflict(async () => files.add(await forWrite(files, rows)));
}
