import type * as lancedb from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChunkRow, VectorRow } from './schema.js';
import { sqlIn } from './sql.js';
import { retryOnConflict } from './retry.js';
import { forWrite } from './arrow-write.js';
import { embeddingInputHash } from './embedding-input.js';

/** Table-level steps of IndexStore: opening and creating tables, and the row writes it composes. */

/**
 * Opens a table, or creates it when `schema` is given. A process killed while LanceDB created a
 * table leaves its folder without any committed version: listed by tableNames() but impossible to
 * open. Such a table (no version, no data file) never held a row, so it counts as absent and is
 * created over when allowed; anything else that fails to open is damage and the error goes on.
 */
export async function openOrCreate(
  db: lancedb.Connection,
  dir: string,
  names: Set<string>,
  name: string,
  schema: (() => Schema) | null,
): Promise<lancedb.Table | null> {
  if (names.has(name)) {
    try {
      return await db.openTable(name);
    } catch (err) {
      if (!(await neverCommitted(join(dir, `${name}.lance`)))) throw err;
    }
  }
  return schema ? db.createEmptyTable(name, schema(), { existOk: true }) : null;
}

export async function neverCommitted(tableDir: string): Promise<boolean> {
  const list = (sub: string) => readdir(join(tableDir, sub)).catch(() => [] as string[]);
  const [versions, data] = await Promise.all([list('_versions'), list('data')]);
  return !versions.some((f) => f.endsWith('.manifest')) && data.length === 0;
}

/**
 * Indexes from before change times and inodes were kept get the columns (0: unknown, so each file
 * is hashed once at the next scan and its stat recorded).
 */
export async function addMissingFileColumns(files: lancedb.Table): Promise<void> {
  const have = new Set((await files.schema()).fields.map((f) => f.name));
  const missing = ['ctime', 'ino'].filter((c) => !have.has(c));
  if (missing.length > 0)
    await retryOnConflict(() => files.addColumns(missing.map((name) => ({ name, valueSql: 'cast(0.0 as double)' }))));
}

/** Vectors tables this process has seen with today's columns. */
const upToDate = new WeakSet<lancedb.Table>();

/**
 * Vectors tables from before the model's input was kept get the column ('': unknown, so their rows
 * keep their own chunk's vector but are never copied to another chunk). Every write of vector rows
 * calls it first; the schema is read once per table handle.
 */
export async function addMissingVectorColumns(vectors: lancedb.Table): Promise<void> {
  if (upToDate.has(vectors)) return;
  const have = new Set((await vectors.schema()).fields.map((f) => f.name));
  if (!have.has('input_hash'))
    await retryOnConflict(() => vectors.addColumns([{ name: 'input_hash', valueSql: "cast('' as string)" }]));
  upToDate.add(vectors);
}

/** The columns of a chunk its vector row repeats, and those the model's input is made of. */
export type VectorSource = Pick<
  ChunkRow,
  'id' | 'folder' | 'path' | 'rel' | 'ext' | 'kind' | 'mtime' | 'text_hash' | 'text' | 'heading' | 'symbol'
>;

/**
 * Copies vectors of an identical model input (title line and text, see index/embedding-input.ts)
 * to chunk ids that have none yet; returns the ids that have a vector now. Looks them up in `from`
 * (an earlier version of the same table, see index/pass-vectors.ts), copies into `vectors`.
 */
export async function carryOverVectors(
  vectors: lancedb.Table,
  chunks: VectorSource[],
  from: lancedb.Table = vectors,
): Promise<Set<string>> {
  const have = new Set<string>();
  if (chunks.length === 0) return have;
  await addMissingVectorColumns(vectors);
  const present = (await from
    .query()
    .where(
      sqlIn(
        'id',
        chunks.map((c) => c.id),
      ),
    )
    .select(['id'])
    .toArray()) as { id: string }[];
  for (const r of present) have.add(r.id);
  const need = chunks.filter((c) => !have.has(c.id)).map((c) => ({ chunk: c, input: embeddingInputHash(c) }));
  if (need.length === 0) return have;
  const inputs = [...new Set(need.map((n) => n.input))];
  const byInput = await vectorsByInput(from, inputs);
  const rows: VectorRow[] = [];
  for (const { chunk, input } of need) {
    const v = byInput.get(input);
    if (!v) continue;
    rows.push(vectorRowFor(chunk, v));
    have.add(chunk.id);
  }
  if (rows.length > 0) await retryOnConflict(async () => vectors.add(await forWrite(vectors, rows)));
  return have;
}

/** The vectors of these model inputs (`input_hash`) in the table, one per input. */
export async function vectorsByInput(vectors: lancedb.Table, inputs: string[]): Promise<Map<string, number[]>> {
  if (inputs.length === 0) return new Map();
  const rows = (await vectors
    .query()
    .where(sqlIn('input_hash', inputs))
    .select(['input_hash', 'vector'])
    .toArray()) as { input_hash: string; vector: ArrayLike<number> }[];
  return new Map(rows.map((r) => [r.input_hash, Array.from(r.vector)]));
}

export function vectorRowFor(c: VectorSource, vector: number[] | Float32Array): VectorRow {
  return {
    id: c.id,
    folder: c.folder,
    path: c.path,
    rel: c.rel,
    ext: c.ext,
    kind: c.kind,
    mtime: c.mtime,
    text_hash: c.text_hash,
    input_hash: embeddingInputHash(c),
    vector: Array.from(vector),
  };
}

export async function appendRows(table: lancedb.Table, rows: unknown[]): Promise<void> {
  if (rows.length > 0) await table.add(await forWrite(table, rows as object[]));
}

export async function replaceWhere(table: lancedb.Table, key: string, rows: unknown[], scope: string): Promise<void> {
  if (rows.length === 0) {
    await table.delete(scope);
    return;
  }
  // Matched rows are identical by construction (the id hashes content, place and mtime), so they
  // are left alone: an update in place would hide them from full-text search until optimize.
  const data = await forWrite(table, rows as object[]);
  await table.mergeInsert(key).whenNotMatchedInsertAll().whenNotMatchedBySourceDelete({ where: scope }).execute(data);
}
