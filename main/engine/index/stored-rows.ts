import type { Table } from '@lancedb/lancedb';
import type { ChunkRow, DocRow, FileRow } from './schema.js';
import { sqlIn } from './sql.js';

/** The row type of each text table, by the name IndexStore.storedRows takes. */
export interface StoredRow {
  chunks: ChunkRow;
  docs: DocRow;
  files: FileRow;
}

/**
 * Whole stored rows of the text tables, typed: what a check that compares an index by value (a
 * recovered index against a fresh build, a rewrite against what it replaced) reads instead of
 * querying the tables itself. `paths` null: every row.
 */
export async function storedRows<R>(table: Table, paths: string[] | null): Promise<R[]> {
  const q = table.query();
  const rows = (await (paths === null ? q : q.where(sqlIn('path', paths))).toArray()) as Record<string, unknown>[];
  return rows.map((r) => ({ ...r }) as R);
}
