import type * as lancedb from '@lancedb/lancedb';
import type { ChunkRow, DocRow, EdgeRow, FileRow, NodeRow } from './schema.js';
import { sqlIn } from './sql.js';
import { retryOnConflict } from './retry.js';
import { forWrite } from './arrow-write.js';
import { addMissingVectorColumns, appendRows, carryOverVectors, replaceWhere } from './tables.js';
import type { TableIndexes } from './table-indexes.js';
import type { CoreTables } from './handles.js';

export interface FileWrite {
  file: FileRow;
  /** Absent for a file with no text (an error, an empty file). */
  doc?: DocRow;
  chunks: ChunkRow[];
  nodes: NodeRow[];
  edges: EdgeRow[];
  /**
   * True when no table holds any row of this path yet (a file the index has never seen): its rows
   * can be appended instead of merged, which skips a join over the whole table per write.
   */
  fresh?: boolean;
}

/**
 * The row writes of IndexStore.writeFiles, table by table in the order that keeps a crash
 * harmless: chunks, docs, vectors, graph rows, and the `files` rows (with the content hash) last.
 * `missing` gets, per path, how many of its chunks still lack a vector.
 */
export async function writeRows(
  t: CoreTables,
  indexes: TableIndexes,
  writes: FileWrite[],
  paths: string[],
  vectors: lancedb.Table | null,
  fold: boolean,
  missing: Map<string, number>,
): Promise<Map<string, number>> {
  const inPaths = sqlIn('path', paths);
  const chunks = writes.flatMap((w) => w.chunks);
  for (const w of writes) missing.set(w.file.path, w.chunks.length);
  // A batch of files the index has never seen has nothing to replace or delete: appends only.
  const fresh = writes.every((w) => w.fresh === true);
  const put = (table: lancedb.Table, rows: unknown[]) =>
    fresh ? appendRows(table, rows) : replaceWhere(table, 'id', rows, inPaths);
  await retryOnConflict(() => put(t.chunks, chunks));
  await indexes.ensureFtsIndex(t.chunks, 'search_text');
  for (const column of ['id', 'path']) await indexes.ensureKeyIndex(t.chunks, column);
  if (fold) await indexes.foldIntoFts(t.chunks);
  const docs = writes.flatMap((w) => (w.doc ? [w.doc] : []));
  await retryOnConflict(() => put(t.docs, docs));
  await indexes.ensureFtsIndex(t.docs, 'text');
  if (fold) await indexes.foldIntoFts(t.docs);
  if (vectors) {
    await addMissingVectorColumns(vectors);
    await indexes.ensureKeyIndex(vectors, 'id');
    await indexes.ensureKeyIndex(vectors, 'input_hash');
    const have = await carryOverVectors(vectors, chunks);
    for (const c of chunks) if (have.has(c.id)) missing.set(c.path, (missing.get(c.path) ?? 1) - 1);
    const keep = chunks.map((c) => c.id);
    if (!fresh)
      await retryOnConflict(() => vectors.delete(keep.length ? `${inPaths} AND NOT ${sqlIn('id', keep)}` : inPaths));
  }
  const nodes = writes.flatMap((w) => w.nodes);
  await retryOnConflict(() => put(t.nodes, nodes));
  if (!fresh) await retryOnConflict(() => t.edges.delete(inPaths));
  const edges = writes.flatMap((w) => w.edges);
  if (edges.length > 0) await retryOnConflict(async () => t.edges.add(await forWrite(t.edges, edges)));
  const files = writes.map((w) => ({ ...w.file, embedded: (missing.get(w.file.path) ?? 0) === 0 }));
  await retryOnConflict(async () =>
    t.files
      .mergeInsert('path')
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .execute(await forWrite(t.files, files)),
  );
  return missing;
}

/**
 * Deletes the rows `filter` selects from every table. `vectorTables` lists every model's vectors
 * table, not only those this process has opened: a `cairn remove` in a fresh process must not
 * leave vectors behind to take top-k slots.
 */
export async function removeRows(
  t: CoreTables,
  indexes: TableIndexes,
  filter: string,
  vectorTables: () => Promise<lancedb.Table[]>,
): Promise<void> {
  await retryOnConflict(() => t.chunks.delete(filter));
  await indexes.foldIntoFts(t.chunks);
  await retryOnConflict(() => t.docs.delete(filter));
  await indexes.foldIntoFts(t.docs);
  for (const v of await vectorTables()) await retryOnConflict(() => v.delete(filter));
  await retryOnConflict(() => t.nodes.delete(filter));
  await retryOnConflict(() => t.edges.delete(filter));
  await retryOnConflict(() => t.files.delete(filter));
}
