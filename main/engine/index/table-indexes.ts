import * as lancedb from '@lancedb/lancedb';
import { FTS_SETTINGS } from './contract.js';
import { retryOnConflict } from './retry.js';

/**
 * Which tables of one store have their full-text and key (B-tree) indexes, and building them when
 * a write makes them possible: the store asks before every write and fold, so it is kept here once.
 */
export class TableIndexes {
  /** By table name: the handles change at every reopen, the tables' indexes do not. */
  private ftsReady = new Set<string>();
  private keyIndexed = new Map<string, Set<string>>();

  hasFts(table: lancedb.Table): boolean {
    return this.ftsReady.has(table.name);
  }

  /** Forgets every table (the index was moved aside and a new, empty one opened in its place). */
  clear(): void {
    this.ftsReady.clear();
    this.keyIndexed.clear();
  }

  /** At open: a table whose full-text index exists already (an index written by an earlier run). */
  async adoptFts(table: lancedb.Table, column: string): Promise<void> {
    if ((await table.listIndices()).some((i) => i.columns.includes(column))) this.ftsReady.add(table.name);
  }

  /**
   * Columns looked up by value (`id IN (...)`: a search's hits, vectors carried over to re-chunked
   * files; `path IN (...)`: a file's chunks) get a B-tree; without it each lookup scans the table:
   * 17-28 ms at 100k chunks against about 5. Rows written later are folded in by optimize and flat-scanned until then, so answers
   * never depend on it. Indexes made before it existed get it at the next open or write.
   */
  async ensureKeyIndex(table: lancedb.Table, column: string): Promise<void> {
    const done = this.keyIndexed.get(table.name) ?? new Set<string>();
    this.keyIndexed.set(table.name, done);
    if (done.has(column) || (await table.countRows()) === 0) return;
    if (!(await table.listIndices()).some((i) => i.columns.includes(column))) {
      await retryOnConflict(() => table.createIndex(column, { config: lancedb.Index.btree() }));
    }
    done.add(column);
  }

  /**
   * A full-text index is built over real rows, after the first write: LanceDB 0.31 mis-scores
   * rows appended to an index that was created on an empty table (terms seen twice in a chunk
   * stop matching).
   */
  async ensureFtsIndex(table: lancedb.Table, column: string): Promise<void> {
    if (this.ftsReady.has(table.name)) return;
    if ((await table.countRows()) === 0) return;
    const indices = await table.listIndices();
    if (!indices.some((i) => i.columns.includes(column))) {
      await table.createIndex(column, {
        config: lancedb.Index.fts({
          baseTokenizer: FTS_SETTINGS.tokenizer,
          stem: FTS_SETTINGS.stem,
          removeStopWords: FTS_SETTINGS.stop_words,
          language: FTS_SETTINGS.language,
          // The analyzer has lower-cased and folded already; folding again would merge what it keeps apart.
          lowercase: false,
          asciiFolding: false,
          withPosition: false,
        }),
      });
    }
    this.ftsReady.add(table.name);
  }

  /** New rows into the table's full-text index (see IndexStore.fold); nothing before the index exists. */
  async foldIntoFts(table: lancedb.Table): Promise<void> {
    if (!this.ftsReady.has(table.name)) return;
    await retryOnConflict(() => table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) }));
  }
}
