import type { Table } from '@lancedb/lancedb';
import { Bm25Index, type Bm25Params } from './bm25.js';
import { filterTest, type FilteredRow, type RowFilter } from './row-filter.js';
import { sqlIn } from './sql.js';
import { decodeRows, type Columns, type Raw } from './arrow-rows.js';

/**
 * The chunks' and files' analysed text as in-memory BM25 indexes (index/bm25.ts), mirroring the
 * two LanceDB tables the sparse leg searches. LanceDB stays the store of record: the mirror is
 * read from it (at open, in the background, and again after the index is replaced), and the
 * paths the store writes or removes are read again from it before the next search is served
 * (`forgetPaths`, called before each write and after its commit). Until it is built, or while a
 * refresh races a write, `serve` answers null and the caller asks LanceDB as before. It relies on
 * this process being the index's only writer (the data folder's lock, engine/lock.ts).
 *
 * Slots of removed or rewritten rows are not reused before the next full read (a reopened store,
 * a moved-aside index): about 20 bytes per rewritten chunk meanwhile.
 */

/** A file's origin columns, shared by its chunks' entries. */
export interface FileOrigin extends FilteredRow {
  rel: string;
}

/** What a hit shows beyond its place (index/search-reads.ts, HitRow). */
export interface ShownColumns {
  text: string;
  language: string;
  symbol: string;
  heading: string;
}

export interface ChunkEntry {
  id: string;
  file: FileOrigin;
  start_line: number;
  end_line: number;
  page: number;
  /** Held while the mirror's shown text fits SHOWN_TEXT_BUDGET; else a hit reads it from LanceDB. */
  shown?: ShownColumns;
}

/** Past this many changed files, reading the whole tables again is cheaper than an `IN` over them. */
const REBUILD_FROM = 5_000;
/**
 * Characters of chunk text the mirror holds for showing hits. With a hit's text in memory a sparse
 * search reads nothing from LanceDB: that one read by id was half of its time at 100k chunks and
 * nearly all of it at 2k (issue 17). 64 M characters cover about 150k chunks of prose; past it,
 * chunks are kept without their text and their hits read it as before.
 */
export const SHOWN_TEXT_BUDGET = 64 * 2 ** 20;
const ORIGIN = ['folder', 'path', 'rel', 'kind', 'ext', 'mtime'];
/** The columns of ShownColumns. */
export const SHOWN_COLUMNS = ['text', 'language', 'symbol', 'heading'];
const CHUNK_COLUMNS = ['id', ...ORIGIN, 'start_line', 'end_line', 'page', 'search_text', ...SHOWN_COLUMNS];
const DOC_COLUMNS = [...ORIGIN, 'text'];

/** One table's mirror: the BM25 index and, by slot, what a match returns. */
export class MemoryTable<E extends { file: FileOrigin; shown?: ShownColumns }> {
  readonly index: Bm25Index;
  private readonly entries: (E | undefined)[] = [];
  private readonly byPath = new Map<string, number[]>();
  /** Each slot's file, as an index into `files`: a filter is tested once per file, not per chunk. */
  private slotFile = new Uint32Array(1024);
  private readonly files: FileOrigin[] = [];
  private readonly fileIndex = new Map<string, number>();
  /** The last filter's files that pass, kept until the table changes (a search asks it 2-4 times). */
  private passing: { key: string; version: number; pass: Uint8Array } | null = null;
  private version = 0;
  /** Characters of shown text the live entries hold (see SHOWN_TEXT_BUDGET). */
  heldText = 0;

  constructor(params?: Bm25Params) {
    this.index = new Bm25Index(params);
  }

  add(entry: E, text: string): void {
    const slot = this.index.add(text);
    this.entries[slot] = entry;
    this.heldText += heldBy(entry);
    this.version++;
    let file = this.fileIndex.get(entry.file.path);
    if (file === undefined || this.files[file] !== entry.file) {
      file = this.files.length;
      this.files.push(entry.file);
      this.fileIndex.set(entry.file.path, file);
    }
    if (slot >= this.slotFile.length) {
      const grown = new Uint32Array(Math.max(slot + 1, this.slotFile.length * 2));
      grown.set(this.slotFile);
      this.slotFile = grown;
    }
    this.slotFile[slot] = file;
    const list = this.byPath.get(entry.file.path);
    if (list) list.push(slot);
    else this.byPath.set(entry.file.path, [slot]);
  }

  removePath(path: string): void {
    this.version++;
    for (const slot of this.byPath.get(path) ?? []) {
      this.index.remove(slot);
      this.heldText -= heldBy(this.entries[slot]);
      this.entries[slot] = undefined;
    }
    this.byPath.delete(path);
  }

  /**
   * The best `limit` matches of `match` passing `filter`, made into rows by `make` and put in
   * `order`. The cut falls at the limit-th best score and equal scores there are ordered as the
   * whole list would be (LanceDB keeps some of a tie at its cut, by row); rows are made for the
   * candidates at or above the cut only (a common word matches most chunks).
   */
  best<U>(
    match: string,
    filter: RowFilter | undefined,
    limit: number,
    make: (entry: E, score: number) => U,
    order: (rows: U[]) => U[],
  ): U[] {
    const { slots, count, sums } = this.index.search(match, filter ? this.maskOf(filter) : undefined);
    let cut = -Infinity;
    if (count > limit && limit > 0) {
      const scores = new Float32Array(count);
      for (let i = 0; i < count; i++) scores[i] = sums[slots[i]];
      cut = nthSmallest(scores, count - limit);
    }
    const out: U[] = [];
    for (let i = 0; i < count; i++) {
      const slot = slots[i];
      if (sums[slot] >= cut) out.push(make(this.entries[slot] as E, sums[slot]));
    }
    return order(out).slice(0, Math.max(0, limit));
  }

  /** The live entries of one file, in the order they were added. */
  entriesOf(path: string): E[] {
    return (this.byPath.get(path) ?? []).map((slot) => this.entries[slot] as E);
  }

  /** Which files pass the filter, by file index (see `slotFile`). */
  private maskOf(filter: RowFilter): { slotFile: Uint32Array; pass: Uint8Array } {
    const key = JSON.stringify(filter);
    if (this.passing?.key !== key || this.passing.version !== this.version) {
      const test = filterTest(filter);
      const pass = new Uint8Array(this.files.length);
      if (filter.paths) {
        for (const p of filter.paths) {
          const i = this.fileIndex.get(p);
          if (i !== undefined && test(this.files[i])) pass[i] = 1;
        }
      } else for (let i = 0; i < this.files.length; i++) pass[i] = test(this.files[i]) ? 1 : 0;
      this.passing = { key, version: this.version, pass };
    }
    return { slotFile: this.slotFile, pass: this.passing.pass };
  }

  get paths(): number {
    return this.byPath.size;
  }
}

/**
 * The value a full sort would put at index `n` (the cut of `best`), by selection: a common word
 * matches most chunks, and sorting all their scores was a large share of a search's time.
 * Reorders `a`.
 */
export function nthSmallest(a: Float32Array, n: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    // Median of three as the pivot (scores are often sorted runs: postings come in slot order).
    const mid = (lo + hi) >>> 1;
    const x = a[lo];
    const y = a[mid];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else return a[n];
  }
  return a[n];
}

export interface Mirror {
  chunks: MemoryTable<ChunkEntry>;
  docs: MemoryTable<{ file: FileOrigin }>;
  /** Characters of shown text the chunks may hold (SparseMemory.textBudget when built). */
  textBudget: number;
}

export class SparseMemory {
  private mirror: Mirror | null = null;
  /** Bumped by every forget: a refresh read that began before one may hold replaced rows. */
  private generation = 0;
  /** Bumped by forgetAll: the mirror is valid only if built after the last one. */
  private epoch = 0;
  private builtEpoch = -1;
  private failedEpoch = -1;
  private building: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;
  /** Paths written or removed since the mirror last read them, with the generation of their last forget. */
  private readonly dirty = new Map<string, number>();
  private closed = false;
  /** Searches answered from memory (tests check that a comparison compared something). */
  served = 0;
  /** Reads of changed paths (tests check that an ingest's rows were read before a search asked). */
  refreshes = 0;
  /** Read by the next build: tests set 0 to see hits read their text from LanceDB. */
  textBudget = SHOWN_TEXT_BUDGET;

  constructor(
    private readonly tables: () => { chunks: Table; docs: Table },
    private readonly params?: Bm25Params,
  ) {}

  forgetPaths(paths: Iterable<string>): void {
    this.generation++;
    for (const p of paths) this.dirty.set(p, this.generation);
    if (this.dirty.size > REBUILD_FROM) this.forgetAll();
  }

  forgetAll(): void {
    this.generation++;
    this.epoch++;
    this.dirty.clear();
  }

  /** New handles on the same rows (IndexStore.reopen): a build that failed may be tried again. */
  rebound(): void {
    this.failedEpoch = -1;
  }

  /** Starts building the mirror if it is not valid and no build runs. */
  warm(): void {
    if (this.closed || this.building || this.builtEpoch === this.epoch || this.failedEpoch === this.epoch) return;
    const epoch = this.epoch;
    // The build reads every row as of now: changes noted before it are in what it reads.
    this.dirty.clear();
    this.building = this.build()
      .then((m) => {
        if (this.closed) return;
        this.mirror = m;
        this.builtEpoch = epoch;
      })
      .catch(() => {
        // LanceDB still answers every search (and names damage where it finds it).
        this.failedEpoch = epoch;
      })
      .finally(() => {
        this.building = null;
      });
  }

  /**
   * Reads what changed in the background, as a search would before it is served: called after
   * each committed write, so an ingest's rows are in the mirror by the time it ends, read while
   * its parse workers work, instead of by the first search after it (1.4-1.9 s for 2,000 files
   * of 25k chunks, issue 17).
   */
  catchUp(): void {
    if (this.closed) return;
    if (this.builtEpoch !== this.epoch || !this.mirror) this.warm();
    else if (this.dirty.size > 0) void this.refreshOnce().catch(() => undefined);
  }

  private refreshOnce(): Promise<void> {
    return (this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    }));
  }

  /** The build in progress, if any, settled (tests, close). */
  async settled(): Promise<void> {
    await this.building;
  }

  /** The build and the refresh in progress, if any, settled (tests). */
  async caughtUp(): Promise<void> {
    await this.building;
    await this.refreshing?.catch(() => undefined);
  }

  /** Never serves again: every search asks LanceDB (a reference to compare the mirror with). */
  disable(): void {
    this.closed = true;
    this.mirror = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.building;
    await this.refreshing;
  }

  /**
   * Runs `use` on the mirror once it holds what LanceDB holds now, synchronously after the check,
   * so that no forget falls between them; null when it cannot be had yet (the caller reads LanceDB).
   */
  async serve<T>(use: (m: Mirror) => T): Promise<T | null> {
    if (this.closed) return null;
    if (this.builtEpoch !== this.epoch || !this.mirror) {
      this.warm();
      return null;
    }
    // A refresh already running may have read before the latest forget: a second one reads the rest.
    for (let round = 0; round < 2 && this.dirty.size > 0; round++) await this.refreshOnce().catch(() => undefined);
    if (this.builtEpoch !== this.epoch || this.dirty.size > 0 || !this.mirror) return null;
    this.served++;
    return use(this.mirror);
  }

  /**
   * Reads the changed paths' rows again. A path forgotten again meanwhile (written while the read
   * ran) keeps its entries and stays dirty: what was read of it may be from before that write.
   */
  private async refresh(): Promise<void> {
    const paths = [...this.dirty.keys()];
    const g = this.generation;
    this.refreshes++;
    const epoch = this.epoch;
    const { chunks, docs } = this.tables();
    const where = sqlIn('path', paths);
    const [crows, drows] = await Promise.all([
      readAll(chunks.query().where(where).select(CHUNK_COLUMNS)),
      readAll(docs.query().where(where).select(DOC_COLUMNS)),
    ]);
    const m = this.mirror;
    if (epoch !== this.epoch || !m) return;
    const current = new Set(paths.filter((p) => (this.dirty.get(p) ?? Infinity) <= g));
    for (const p of current) {
      m.chunks.removePath(p);
      m.docs.removePath(p);
      this.dirty.delete(p);
    }
    const origins = new Map<string, FileOrigin>();
    for (const r of crows) if (current.has(r.path as string)) addChunk(m, r, origins);
    for (const r of drows) if (current.has(r.path as string)) addDoc(m, r, origins);
    m.chunks.index.compactIfDue();
    m.docs.index.compactIfDue();
  }

  private async build(): Promise<Mirror> {
    const m: Mirror = {
      chunks: new MemoryTable(this.params),
      docs: new MemoryTable(this.params),
      textBudget: this.textBudget,
    };
    const origins = new Map<string, FileOrigin>();
    const { chunks, docs } = this.tables();
    await readBatches(chunks.query().select(CHUNK_COLUMNS), (rows) => {
      for (const r of rows) addChunk(m, r, origins);
      return !this.closed;
    });
    await readBatches(docs.query().select(DOC_COLUMNS), (rows) => {
      for (const r of rows) addDoc(m, r, origins);
      return !this.closed;
    });
    m.chunks.index.compact();
    m.docs.index.compact();
    return m;
  }

  /** What the mirror holds, for the memory figures of the latency benchmark. */
  stats(): { chunks: number; files: number; tokens: number; postingBytes: number } | null {
    const m = this.builtEpoch === this.epoch ? this.mirror : null;
    if (!m) return null;
    return {
      chunks: m.chunks.index.size,
      files: m.docs.index.size,
      tokens: m.chunks.index.tokens + m.docs.index.tokens,
      postingBytes: m.chunks.index.postingBytes() + m.docs.index.postingBytes(),
    };
  }
}

function originOf(r: Raw, origins: Map<string, FileOrigin>): FileOrigin {
  const path = r.path as string;
  let o = origins.get(path);
  if (!o) {
    o = {
      folder: r.folder as string,
      path,
      rel: r.rel as string,
      kind: r.kind as string,
      ext: r.ext as string,
      mtime: r.mtime as number,
    };
    origins.set(path, o);
  }
  return o;
}

function heldBy(e: { shown?: ShownColumns } | undefined): number {
  return e?.shown?.text.length ?? 0;
}

function addChunk(m: Mirror, r: Raw, origins: Map<string, FileOrigin>): void {
  const entry: ChunkEntry = {
    id: r.id as string,
    file: originOf(r, origins),
    start_line: r.start_line as number,
    end_line: r.end_line as number,
    page: r.page as number,
  };
  const text = r.text as string;
  if (m.chunks.heldText + text.length <= m.textBudget)
    entry.shown = {
      text,
      language: r.language as string,
      symbol: r.symbol as string,
      heading: r.heading as string,
    };
  m.chunks.add(entry, r.search_text as string);
}

function addDoc(m: Mirror, r: Raw, origins: Map<string, FileOrigin>): void {
  m.docs.add({ file: originOf(r, origins) }, r.text as string);
}

/** Streams a query's rows a batch at a time (the docs' text of a whole index is never held at once). */
async function readBatches(query: AsyncIterable<Columns>, each: (rows: Raw[]) => boolean): Promise<void> {
  for await (const batch of query) if (!each(decodeRows(batch))) return;
}

async function readAll(query: AsyncIterable<Columns>): Promise<Raw[]> {
  const out: Raw[] = [];
  await readBatches(query, (rows) => {
    out.push(...rows);
    return true;
  });
  return out;
}
