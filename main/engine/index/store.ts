import type * as lancedb from '@lancedb/lancedb';
import { mkdir, rename } from 'node:fs/promises';
import { CairnError } from '../errors.js';
import { vectorSchema } from './schema.js';
import type { FileRow, VectorRow } from './schema.js';
import { TableIndexes } from './table-indexes.js';
import { removeRows, writeRows, type FileWrite } from './write-rows.js';
import { storedRows, type StoredRow } from './stored-rows.js';
import { folderFileRows, type ListedFileRow } from './file-list.js';
import { sqlIn } from './sql.js';
import { retryOnConflict } from './retry.js';
import { forWrite } from './arrow-write.js';
import { addIntents, restat, setEmbedded } from './file-marks.js';
import { REBUILD_REMEDY, unreadable, verifyTables } from './integrity.js';
import { TableHandles } from './handles.js';
import { GraphIndex } from '../graph/graph.js';
import { countFolder, type FolderCounts } from './folder-counts.js';
import {
  chunksOfPaths,
  fileRowsOf,
  loadGraph,
  streamPaths,
  streamStats,
  unembeddedFiles,
  type ChunkToEmbed,
  type StoredStat,
  type UnembeddedFile,
} from './file-table.js';
import { maintain, pruneEmptyIndexFolders, type MaintenanceOptions } from './maintenance.js';
import { addMissingFileColumns, addMissingVectorColumns, openOrCreate } from './tables.js';
import { PassVectors } from './pass-vectors.js';

export { vectorRowFor } from './tables.js';
import { SearchReads } from './search-reads.js';

export type { FileWrite };

/** How often a run of writes recounts its folder for status (recountAll). */
const RUN_COUNT_MS = 5000;

/** How a store is opened (see IndexStore.open). */
export interface StoreOptions {
  searchMirror?: boolean;
}

/**
 * The LanceDB tables of one index folder. Writes are grouped so that a file's old and new chunks
 * are swapped in one commit (merge-insert with delete-by-source), and the `files` row, which
 * records the content hash, is written last: a crash between the two only means the file is
 * processed again on the next start.
 */
export class IndexStore {
  private vectorTables = new Map<string, lancedb.Table>();
  /** The graph tables in memory, for the graph leg: loaded at open, kept in step by every write here. */
  readonly graph = new GraphIndex();
  /** Per-folder counts of the `files` table (status, freshness), recounted by every write here. */
  private readonly counts = new Map<string, FolderCounts>();
  /** When each folder was last counted, and the folders a run's writes left uncounted (see recountAll). */
  private readonly countedAt = new Map<string, number>();
  private readonly uncounted = new Set<string>();
  /** The search legs' reads (typed rows); told of every chunk write so its cache stays exact. */
  readonly reads: SearchReads;

  private constructor(
    readonly dir: string,
    private handles: TableHandles,
  ) {
    this.reads = new SearchReads(handles.core.chunks, handles.core.docs);
  }

  // Private: every read outside index/ goes through a typed method (here, SearchReads, file-table.ts).
  private get chunks(): lancedb.Table {
    return this.handles.core.chunks;
  }
  private get docs(): lancedb.Table {
    return this.handles.core.docs;
  }
  private get files(): lancedb.Table {
    return this.handles.core.files;
  }
  private get nodes(): lancedb.Table {
    return this.handles.core.nodes;
  }
  private get edges(): lancedb.Table {
    return this.handles.core.edges;
  }
  private get db(): lancedb.Connection {
    return this.handles.connection;
  }

  /**
   * `searchMirror: false` never builds the sparse leg's in-memory BM25 (every search reads
   * LanceDB): for a process that answers one command and exits, the background build is all cost.
   */
  static async open(dir: string, opts: StoreOptions = {}): Promise<IndexStore> {
    await mkdir(dir, { recursive: true });
    let handles: TableHandles | null = null;
    try {
      handles = await TableHandles.open(dir);
      const store = new IndexStore(dir, handles);
      await addMissingFileColumns(store.files);
      // Touch every table once so that a damaged one is found now, not at the first query, and named.
      const named = (t: lancedb.Table, read: Promise<unknown>) =>
        read.catch((err: unknown) => {
          throw unreadable(dir, t.name, err);
        });
      await Promise.all(Object.values(handles.core).map((t) => named(t, t.countRows())));
      // Listing a table's indexes reads their statistics: a damaged full-text index fails here.
      await named(store.chunks, store.indexes.adoptFts(store.chunks, 'search_text'));
      await named(store.docs, store.indexes.adoptFts(store.docs, 'text'));
      // An index from before the key indexes gets them now; a full or read-only disk must not make
      // it unopenable (they are only for speed), so a failure waits for the next write.
      for (const column of ['id', 'path'])
        await store.indexes.ensureKeyIndex(store.chunks, column).catch(() => undefined);
      // The sparse leg's in-memory BM25, read in the background; LanceDB answers until it is there.
      if (opts.searchMirror === false) store.reads.memory.disable();
      else store.reads.memory.warm();
      return store;
    } catch (err) {
      handles?.close([]);
      if (err instanceof CairnError) throw err;
      throw new CairnError('index_corrupt', `The index in ${dir} cannot be opened: ${(err as Error).message}`, {
        remedy: REBUILD_REMEDY,
        cause: err,
      });
    }
  }

  /**
   * Read-level verification of every table: each one read through in a narrow column (every data
   * file's footer and one column's pages), and a full-text query on each full-text index. Cheap
   * next to a search's work; the first damaged table is named in a typed `index_corrupt`.
   */
  async verify(): Promise<void> {
    const vectors = await Promise.all(
      (await this.vectorTableNames()).map(async (n) => ({
        name: n,
        table: await this.vectors(n, 0, false).catch(() => null),
        column: 'id',
      })),
    );
    await verifyTables(this.dir, [
      {
        name: 'chunks',
        table: this.chunks,
        column: 'id',
        fts: this.indexes.hasFts(this.chunks) ? 'search_text' : undefined,
      },
      { name: 'docs', table: this.docs, column: 'id', fts: this.indexes.hasFts(this.docs) ? 'text' : undefined },
      { name: 'files', table: this.files, column: 'path' },
      { name: 'graph_nodes', table: this.nodes, column: 'id' },
      { name: 'graph_edges', table: this.edges, column: 'path' },
      ...vectors.filter((v): v is { name: string; table: lancedb.Table; column: string } => v.table !== null),
    ]);
  }

  private readonly indexes = new TableIndexes();

  /**
   * LanceDB 0.31 scores rows not yet in the full-text index by a flat scan that drops terms seen
   * twice in a chunk, so new rows are folded into the index right after each write (one optimize
   * per batch of files, not per file), or, for a run of writes, once after the run (`fold`).
   * Where sparse searches are answered from memory (a serving engine's mirror, which holds every
   * committed row), the run's fold is left to the maintenance pass that follows every job: it
   * runs the same optimize a moment later, and the job no longer waits for it (1.2-1.5 s of a
   * 7.4 s ingest of 25k chunks, issue 17). A search LanceDB answers meanwhile (the mirror still
   * building) finds the unfolded rows by a flat scan, as it does during the run.
   */
  async fold(): Promise<void> {
    try {
      if (this.reads.memory.enabled) return;
      await this.indexes.foldIntoFts(this.chunks);
      await this.indexes.foldIntoFts(this.docs);
    } finally {
      await this.recountAll([...this.uncounted]);
    }
  }

  /** The vectors table for one model: separate per model so that a model change never mixes spaces. */
  async vectors(tableName: string, dimensions: number, create: boolean): Promise<lancedb.Table | null> {
    const cached = this.vectorTables.get(tableName);
    if (cached) return cached;
    const db = this.db;
    const names = new Set(await db.tableNames());
    const t = await openOrCreate(db, this.dir, names, tableName, create ? () => vectorSchema(dimensions) : null);
    if (t) {
      // Searches that all found no table after a reopen each opened one: the first kept serves
      // them all, and one opened on a connection a reopen has since retired is not kept (neither
      // would ever be closed, holding a session and its open index files until collected).
      const kept = this.vectorTables.get(tableName);
      if (kept || db !== this.db) {
        t.close();
        return kept ?? this.vectors(tableName, dimensions, create);
      }
      this.vectorTables.set(tableName, t);
      // Also reached by searches: a failure (a full disk) leaves it to the next write.
      await this.indexes.ensureKeyIndex(t, 'id').catch(() => undefined);
      await addMissingVectorColumns(t).catch(() => undefined);
    }
    return t;
  }

  async dropVectors(tableName: string): Promise<void> {
    this.vectorTables.delete(tableName);
    if ((await this.db.tableNames()).includes(tableName)) await this.db.dropTable(tableName);
  }

  async vectorTableNames(): Promise<string[]> {
    return (await this.db.tableNames()).filter((n) => n.startsWith('vectors__'));
  }

  /**
   * Replaces the given files' chunks, graph rows and file rows; each table in one commit.
   * With a vectors table, vectors whose text is unchanged are carried over to the new chunk ids
   * (renames and re-chunking cost no re-embedding) and vectors of vanished chunks are dropped.
   * Returns, per path, how many of its chunks still lack a vector. `fold: false` leaves the new
   * rows out of the full-text indexes until fold() (each fold rewrites index segments: folding a
   * bulk run once instead of after every batch is a fifth of the text pipeline's time).
   */
  async writeFiles(
    writes: FileWrite[],
    vectorsName: string | null,
    { fold = true } = {},
  ): Promise<Map<string, number>> {
    const missing = new Map<string, number>();
    if (writes.length === 0) return missing;
    const paths = writes.map((w) => w.file.path);
    const vectors = vectorsName ? (this.vectorTables.get(vectorsName) ?? null) : null;
    this.reads.forgetPaths(paths);
    let committed = false;
    try {
      await writeRows(this.handles.core, this.indexes, writes, paths, vectors, fold, missing);
      committed = true;
    } finally {
      // Mirrors follow the tables, also after a failed write (part of it may have committed, so
      // it is read back), and take the new rows now, not when the next search asks.
      this.reads.forgetPaths(paths);
      if (committed) this.reads.memory.written(writes);
      else this.reads.memory.catchUp();
      await this.recountAll(
        writes.map((w) => w.file.folder),
        !fold,
      );
    }
    for (const w of writes) this.graph.setFile(w.file.folder, w.file.path, w.file.rel, w.nodes, w.edges);
    return missing;
  }

  /** Removes files (deleted, newly ignored) from every table. */
  async removeFiles(folder: string, paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    try {
      await this.removeWhere(sqlIn('path', paths), paths);
    } finally {
      await this.recountAll([folder]);
    }
    for (const p of paths) this.graph.removeFile(folder, p);
  }

  /** Removes a folder's rows (the folder removed, or its index dropped) from every table. */
  async removeFolder(folder: string): Promise<void> {
    try {
      await this.removeWhere(sqlIn('folder', [folder]));
    } finally {
      await this.recountAll([folder]);
    }
    this.graph.removeFolder(folder);
  }

  /** `paths`: the files `filter` selects, when it names them (else every cache starts over). */
  private async removeWhere(filter: string, paths?: string[]): Promise<void> {
    const forget = () => (paths ? this.reads.forgetPaths(paths) : this.reads.forgetAll());
    forget();
    try {
      await removeRows(this.handles.core, this.indexes, filter, () => this.allVectorTables());
    } finally {
      forget();
    }
  }

  /** Every model's vectors table, opened (and kept) where this process has not opened it yet. */
  private async allVectorTables(): Promise<lancedb.Table[]> {
    const names = await this.vectorTableNames();
    const out: lancedb.Table[] = [];
    for (const name of names) {
      const v = await this.vectors(name, 0, false);
      if (v) out.push(v);
    }
    return out;
  }

  /** Records new change times / inodes of files whose content was found unchanged. */
  restatFiles(rows: FileRow[]): Promise<void> {
    return restat(this.files, rows);
  }

  /**
   * `files` are the folder's rows `unembedded()` listed: their chunks are added to its embedded count
   * without a recount (this runs after every few files of an embedding pass).
   */
  async markEmbedded(folder: string, files: UnembeddedFile[]): Promise<void> {
    if (files.length === 0) return;
    await setEmbedded(
      this.files,
      sqlIn(
        'path',
        files.map((f) => f.path),
      ),
      true,
    );
    const c = this.counts.get(folder);
    if (c) c.embedded = Math.min(c.chunks, c.embedded + files.reduce((s, f) => s + f.chunks, 0));
  }

  /** A rebuild for a new model: every file of the folder needs vectors again. */
  async unmarkEmbedded(folder: string): Promise<void> {
    try {
      await setEmbedded(this.files, sqlIn('folder', [folder]), false);
    } finally {
      await this.recountAll([folder]);
    }
  }

  /**
   * Paths about to get their first chunks, recorded as rows that always count as changed, so that
   * a crash before their `files` rows leaves nothing a later prune cannot find.
   */
  recordIntents(rows: FileRow[]): Promise<void> {
    return addIntents(this.files, rows);
  }

  // --- Ingest side: typed reads for the indexer, folder state and the engine (file-table.ts) ----

  /** The folder's counts as of the last write here (undefined before its first count). */
  folderCounts(folder: string): FolderCounts | undefined {
    return this.counts.get(folder);
  }

  /** Counts a folder again from the table (at open, and for a folder just added). */
  async recount(folder: string): Promise<void> {
    this.counts.set(folder, await countFolder(this.files, folder));
    this.countedAt.set(folder, performance.now());
    this.uncounted.delete(folder);
  }

  /**
   * After a write (also a failed one: part of it may have committed); a failed count keeps the old
   * one. A count reads every row of the folder, so the writes of a run (`fold: false`) count at
   * most once per RUN_COUNT_MS and the run's fold counts what they left: recounting after each
   * batch grew with the square of the folder (0.9 of 34 s for 19k files).
   */
  private async recountAll(folders: string[], inRun = false): Promise<void> {
    for (const f of new Set(folders)) {
      if (inRun && performance.now() - (this.countedAt.get(f) ?? -Infinity) < RUN_COUNT_MS) this.uncounted.add(f);
      else await this.recount(f).catch(() => undefined);
    }
  }

  /** Fills `graph` from the tables: once, when the engine opens. */
  async loadGraph(): Promise<void> {
    await loadGraph(this.files, this.nodes, this.edges, this.graph);
  }

  async isEmpty(): Promise<boolean> {
    return (await this.chunks.countRows()) === 0;
  }

  fileStats(folder: string): AsyncGenerator<StoredStat[]> {
    return streamStats(this.files, folder);
  }

  fileRows(paths: string[]): Promise<Map<string, FileRow>> {
    return fileRowsOf(this.files, paths);
  }

  /** A folder's files in the shape a file listing needs (intent rows left out). */
  listedFiles(folder: string): Promise<ListedFileRow[]> {
    return folderFileRows(this.files, folder);
  }

  /** Whole stored rows of a text table for these paths (null: every row), for checks that compare an index by value. */
  storedRows<T extends keyof StoredRow>(table: T, paths: string[] | null): Promise<StoredRow[T][]> {
    return storedRows(this.handles.core[table], paths);
  }

  filePaths(folder: string): AsyncGenerator<string[]> {
    return streamPaths(this.files, folder);
  }

  /** Files of the folder with chunks still lacking vectors. */
  unembedded(folder: string): Promise<UnembeddedFile[]> {
    return unembeddedFiles(this.files, folder);
  }

  chunksToEmbed(paths: string[]): Promise<ChunkToEmbed[]> {
    return chunksOfPaths(this.chunks, paths);
  }

  /** The model's vectors table for one embedding pass (index/pass-vectors.ts); close it after. */
  passVectors(vectorsName: string): Promise<PassVectors> {
    const t = this.vectorTables.get(vectorsName);
    if (!t) throw new CairnError('internal', `the vectors table ${vectorsName} is not open`);
    return PassVectors.open(this.db, t);
  }

  async addVectors(vectorsName: string, rows: VectorRow[]): Promise<void> {
    const t = this.vectorTables.get(vectorsName);
    if (!t) throw new CairnError('internal', `the vectors table ${vectorsName} is not open`);
    await addMissingVectorColumns(t);
    if (rows.length > 0) await retryOnConflict(async () => t.add(await forWrite(t, rows)));
  }

  /**
   * Folds new rows into the indexes and compacts every table (index/maintenance.ts), then reopens
   * the tables in a new session so that nothing the pass replaced stays open (index/handles.ts).
   */
  async maintain(vectorsName: string | null, opts: MaintenanceOptions): Promise<void> {
    const vectors = vectorsName ? (this.vectorTables.get(vectorsName) ?? null) : null;
    await maintain(Object.values(this.handles.core), vectors, opts);
    await pruneEmptyIndexFolders(
      this.dir,
      [...Object.values(this.handles.core), ...(vectors ? [vectors] : [])].map((t) => t.name),
    );
    await this.reopen(opts.retireAfterMs);
  }

  /** New handles for every table; searches already running finish on the old ones. */
  async reopen(graceMs: number): Promise<void> {
    await this.handles.reopen(() => {
      const vectors = [...this.vectorTables.values()];
      this.vectorTables.clear();
      return vectors;
    }, graceMs);
    this.reads.rebind(this.chunks, this.docs);
  }

  /**
   * Moves the whole index folder aside (kept for a post mortem) and opens a new, empty index in
   * its place: what a running engine does with damage (folders/repair.ts), so nothing is ever
   * merged into it. Searches running on the old tables fail; the mirrors start empty.
   */
  async moveAside(): Promise<string> {
    const aside = `${this.dir}.corrupt-${Date.now()}`;
    this.handles.close([...this.vectorTables.values()]);
    this.vectorTables.clear();
    this.indexes.clear();
    this.counts.clear();
    this.graph.clear();
    this.reads.forgetAll();
    await rename(this.dir, aside);
    await mkdir(this.dir, { recursive: true });
    this.handles = await TableHandles.open(this.dir);
    this.reads.rebind(this.chunks, this.docs);
    this.reads.memory.warm();
    return aside;
  }

  async close(): Promise<void> {
    await this.reads.memory.close();
    this.handles.close([...this.vectorTables.values()]);
  }
}
