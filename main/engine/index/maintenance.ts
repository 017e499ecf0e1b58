import * as lancedb from '@lancedb/lancedb';
import type { Table } from '@lancedb/lancedb';
import { readdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { retryOnConflict } from './retry.js';

export interface MaintenanceOptions {
  /** Rows of a vectors table from which an ANN index pays off (below it, exact search is fast). */
  vectorIndexThreshold: number;
  /** Old versions are kept this long so that a reader mid-query never loses its files. */
  keepVersionsMs: number;
  /**
   * After a pass the tables are reopened (index/handles.ts); the replaced handles stay usable this
   * long, for a search that took one before the swap (the vector leg keeps its table across reads).
   */
  retireAfterMs: number;
  /**
   * Delete what a write that never committed left in the tables (a pass or a job cut off by a stop
   * or a kill): data and index files no version names. LanceDB keeps those for 7 days, as they may
   * belong to a write still running; only an engine that holds the data folder's lock, in a pass no
   * job runs beside, knows none does. A stop during a pass at 100k chunks left a 40 MB copy of a
   * table that way (the peers benchmark's index at 1.01-1.07x of qmd's size). Off when absent; an
   * engine sets it when it holds the lock.
   */
  sweepAbandoned?: boolean;
}

/**
 * Exact search reads every vector on each query: about 1.8 ms plus 2.4 us per row (LanceDB, 512
 * dimensions, one client), against 1.7 ms with the index at any size up to 2k rows; 4.0 against
 * 1.7 ms at 1,000 rows, 6.7 against 1.8 at 2,057, and under 32 clients the scan's CPU capped a
 * 2k-chunk engine at about 40 vector searches/s. Building the index there takes 0.1-0.3 s, and
 * recall@10 against exact search was 0.993-0.995 (issue 6's floor is 0.95). Below 1,000 rows the
 * scan costs little more and stays exact.
 */
export const DEFAULT_MAINTENANCE: MaintenanceOptions = {
  vectorIndexThreshold: 1_000,
  keepVersionsMs: 60_000,
  retireAfterMs: 15_000,
};

/**
 * Folds new rows into the full-text and vector indexes, compacts small fragments and prunes old
 * versions. Runs between jobs (see JobQueue.exclusive) and retries commit conflicts.
 */
export async function maintain(
  tables: Table[],
  vectors: Table | null,
  opts: Pick<MaintenanceOptions, 'vectorIndexThreshold' | 'keepVersionsMs' | 'sweepAbandoned'>,
): Promise<void> {
  // With deleteUnverified, LanceDB deletes only unnamed files older than the oldest version it
  // keeps, so a file written after the last commit (a write in progress) is never among them.
  const cleanup = {
    cleanupOlderThan: new Date(Date.now() - opts.keepVersionsMs),
    deleteUnverified: opts.sweepAbandoned === true,
  };
  for (const t of tables) await retryOnConflict(() => t.optimize(cleanup));
  if (!vectors) return;
  const rows = await vectors.countRows();
  const ann = (await vectors.listIndices()).find((i) => i.columns.includes('vector'));
  const optimize = () => retryOnConflict(() => vectors.optimize(cleanup));
  // Below the threshold (a table emptied by removals too) an index is neither built nor rebuilt.
  if (rows < opts.vectorIndexThreshold || (ann && !needsRebuild(ann))) {
    await optimize();
    return;
  }
  // Compacting a table that has an index rewrites the index for the moved rows, which cost as much
  // as building it (10k real vectors: build 1.85 s, then compaction 1.69 s). A first index is
  // built after the compaction instead (compaction 0.05 s, nothing to rewrite after the build).
  // A rebuild keeps the old index serving until the new one replaces it, so it compacts after.
  if (!ann) await optimize();
  await buildVectorIndex(vectors);
  if (ann) await optimize();
}

/**
 * HNSW with scalar quantisation: 2 ms queries at 20k rows; recall is kept by a larger ef at query
 * time (search-reads.ts). Created anew, it replaces every segment.
 */
function buildVectorIndex(vectors: Table): Promise<void> {
  return retryOnConflict(() =>
    vectors.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine' }) }),
  );
}

/**
 * Each optimize that meets new vectors indexes them as a segment of its own, and every query
 * searches every segment: at 100k rows, 20 passes of 10 new rows each took a query from 9.4 to
 * 16.6 ms p50, and a second 100k-row segment doubles the search. Leaving the rows unindexed is
 * worse (flat-scanned: 1,000 rows in 100 fragments, 30 ms). A rebuild costs the whole table (46 s
 * and 800 MB peak at 100k rows on 2 cores). A large delta rebuilds at once, which bounds that work
 * by a constant factor of the rows added. Small deltas wait until a ninth segment, so an engine
 * that is edited all day rebuilds once every 8 passes that brought vectors, whatever their size.
 */
export const MAX_VECTOR_SEGMENTS = 8;
/** A delta of this share of the indexed rows is indexed by a rebuild rather than as another segment. */
export const REBUILD_SHARE = 0.5;

function needsRebuild(ann: { numIndexedRows?: number; numUnindexedRows?: number; numSegments?: number }): boolean {
  const indexed = ann.numIndexedRows ?? 0;
  const unindexed = ann.numUnindexedRows ?? 0;
  const segments = ann.numSegments ?? 1;
  if (unindexed === 0) return false;
  // The segment the next optimize would add counts too.
  return unindexed >= REBUILD_SHARE * indexed || segments + 1 > MAX_VECTOR_SEGMENTS;
}

/**
 * LanceDB's cleanup deletes the files of the indexes it prunes but not their folders: about two
 * empty folders per pass under `_indices` (22 after 12 passes on a vectors table), so an engine
 * edited all day, with a pass every 30 s, would gather thousands. A pass runs with no job writing
 * (JobQueue.exclusive), so no index being built is this empty; rmdir refuses a folder with a file.
 */
export async function pruneEmptyIndexFolders(indexDir: string, tables: string[]): Promise<number> {
  let pruned = 0;
  for (const table of tables) {
    const indices = join(indexDir, `${table}.lance`, '_indices');
    const entries = await readdir(indices, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const removed = await rmdir(join(indices, e.name)).then(
        () => true,
        () => false, // not empty, or gone: either way nothing to do
      );
      if (removed) pruned++;
    }
  }
  return pruned;
}
