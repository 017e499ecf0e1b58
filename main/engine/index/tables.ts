import type * as lancedb from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChunkRow, VectorRow } from './schema.js';
import { sqlIn } from './sql.js';
import { retryOnConflict } from './retry.js';

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

/** The columns of a chunk its vector row repeats. */
export type VectorSource = Pick<ChunkRow, 'id' | 'folder' | 'path' | 'rel' | 'ext' | 'kind' | 'mtime' | 'text_hash'>;

/**
 * Copies vectors of identical text (by text hash) to chunk ids that have none yet; returns the ids
 * that have a vector now.
 */
export async function carryOverVectors(vectors: lancedb.Table, chunks: VectorSource[]): Promise<Set<string>> {
  const have = new Set<string>();
  if (chunks.length === 0) return have;
  const present = (await vectors
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
  const need = chunks.filter((c) => !have.has(c.id));
  if (need.length === 0) return have;
  const hashes = [...new Set(need.map((c) => c.text_hash))];
  const found = (await vectors.query().where(sqlIn('text_hash', hashes)).select(['text_hash', 'vector']).toArray()) as {
    text_hash: string;
    vector: ArrayLike<number>;
  }[];
  const byHash = new Map(found.map((r) => [r.text_hash, Array.from(r.vector)]));
  const rows: VectorRow[] = [];
  for (const c of need) {
    const v = byHash.get(c.text_hash);
    if (!v) continue;
    rows.push(vectorRowFor(c, v));
    have.add(c.id);
  }
  if (rows.length > 0) await retryOnConflict(() => vectors.add(rows as unknown as Record<string, unknown>[]));
  return have;
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
    vector: Array.from(vector),
  };
}

export async function appendRows(table: lancedb.Table, rows: unknown[]): Promise<void> {
  if (rows.length > 0) await table.add(rows as Record<string, unknown>[]);
}

export async function replaceWhere(table: lancedb.Table, key: string, rows: unknown[], scope: string): Promise<void> {
  if (rows.length === 0) {
    await table.delete(scope);
    return;
  }
  // Matched rows are identical by construction (the id hashes content, place and mtime), so they
  // are left alone: an update in place would hide them from full-text search until optimize.
  await table
    .mergeInsert(key)
    .whenNotMatchedInsertAll()
    .whenNotMatchedBySourceDelete({ where: scope })
    .execute(rows as Record<string, unknown>[]);
}
