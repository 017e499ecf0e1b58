import * as lancedb from '@lancedb/lancedb';
import { retryOnConflict } from './retry.js';
import { addMissingVectorColumns, carryOverVectors, vectorsByInput, type VectorSource } from './tables.js';

const KEYS = ['id', 'input_hash'];
/**
 * Rows outside a key index from which a pass indexes them first: every step would scan them
 * twice (two lookups of 730 keys over 219k rows: about 800 ms), a B-tree over every row costs
 * once. There are that many only when no maintenance ran after the pass that wrote them: it
 * crashed, or another job was queued behind it.
 */
const FOLD_UNINDEXED = 20_000;

/**
 * The vectors table as an embedding pass sees it. Its key indexes (B-trees on `id` and
 * `input_hash`) cover the rows maintenance folded in between jobs; rows written since are
 * flat-scanned by every lookup. A pass writes all its vectors itself (jobs run one at a time), so
 * asked of the latest version, each step's lookups scanned every vector the pass had written
 * before it: the cost of a step grew with the pass, a pass with its square (1M chunks slowed from
 * 508 to 151 chunks/s by 524k). So a pass asks what it did not write of the table as it was when
 * it began, and what it wrote of the latest version only for inputs it knows it embedded
 * (ingest/embed-phase.ts).
 */
export class PassVectors {
  private constructor(
    private readonly latest: lancedb.Table,
    private readonly start: lancedb.Table,
  ) {}

  static async open(db: lancedb.Connection, latest: lancedb.Table): Promise<PassVectors> {
    await addMissingVectorColumns(latest);
    for (const column of KEYS) await foldKeyIndex(latest, column);
    const start = await db.openTable(latest.name);
    try {
      await start.checkout(await latest.version());
    } catch (err) {
      start.close();
      throw err;
    }
    return new PassVectors(latest, start);
  }

  /**
   * Of these chunks, the ids that have a vector: their own, written before the pass, or one copied
   * now from a chunk of the same input written before the pass.
   */
  fromBefore(chunks: VectorSource[]): Promise<Set<string>> {
    return carryOverVectors(this.latest, chunks, this.start);
  }

  /** The vectors of these inputs in the latest version: for inputs this pass embedded. */
  written(inputs: string[]): Promise<Map<string, number[]>> {
    return vectorsByInput(this.latest, inputs);
  }

  close(): void {
    this.start.close();
  }
}

async function foldKeyIndex(table: lancedb.Table, column: string): Promise<void> {
  const index = (await table.listIndices()).find((i) => i.columns.length === 1 && i.columns[0] === column);
  const unindexed = index ? ((await table.indexStats(index.name))?.numUnindexedRows ?? 0) : await table.countRows();
  if (unindexed < FOLD_UNINDEXED) return;
  await retryOnConflict(() => table.createIndex(column, { config: lancedb.Index.btree(), replace: true }));
}
