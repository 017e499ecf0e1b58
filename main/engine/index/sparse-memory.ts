import type { Table } from '@lancedb/lancedb';
import type { Bm25Params } from './bm25.js';
import { MemoryTable, type ChunkEntry, type FileOrigin } from './memory-table.js';
import type { ChunkRow, DocRow } from './schema.js';
import { sqlIn } from './sql.js';
import { decodeRows, type Columns, type Raw } from './arrow-rows.js';

/**
 * The chunks' and files' analysed text as in-memory BM25 indexes (index/bm25.ts), mirroring the
 * two LanceDB tables the sparse leg searches. LanceDB stays the store of record: the mirror is
 * read from it (at open, in the background, and again after the index is replaced), and the
 * paths the store writes or removes are read again from it before the next search is served
 * (`forgetPaths`, called before each write and after its commit), unless the rows a write has
 * just committed are added as written (`written`). Until it is built, or while a
 * refresh races a write, `serve` answers null and the caller asks LanceDB as before. It relies on
 * this process being the index's only writer (the data folder's lock, engine/lock.ts).
 *
 * Slots of removed or rewritten rows are not reused before the next full read (a reopened store,
 * a moved-aside index): about 20 bytes per rewritten chunk meanwhile.
 */

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
const DOC_COLUMNS = ['id', ...ORIGIN, 'text'];

/** A committed write's rows for one file (index/write-rows.ts, FileWrite). */
export interface WrittenFile {
  file: { path: string };
  doc?: DocRow;
  chunks: readonly ChunkRow[];
}

export interface Mirror {
  chunks: MemoryTable<ChunkEntry>;
  /** A file's row, by id: a write that finds its id kept is read back (SparseMemory.written). */
  docs: MemoryTable<{ id: string; file: FileOrigin }>;
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
  /** Files whose committed rows were added as written, not read back (tests). */
  applied = 0;
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

  /**
   * A write's rows, just committed, added as reading them back would add them, which at 2,000
   * notes of 25k chunks cost the main thread and LanceDB about 1.5 s per ingest (issue 17). The
   * store replaces every row of each written path with exactly these (write-rows.ts), and each
   * value reads back as the same JS value (arrow-rows.ts) unless its column does not store it as
   * is: a lone surrogate (stored as U+FFFD), a fraction or -0 in an integer column. A row whose id
   * the table already held is kept as it was (tables.ts, replaceWhere), which an older version
   * may have written otherwise (a rebuild rewrites unchanged files under their old ids), so a file
   * with an id the mirror holds is read back too, as is every file when the mirror is not current
   * (catchUp).
   * Called synchronously after the commit's forget: a refresh reading meanwhile finds no mark
   * left for a path taken here, so its older read of it is not applied (refresh).
   */
  written(writes: readonly WrittenFile[]): void {
    const m = this.mirror;
    if (this.closed || !m || this.builtEpoch !== this.epoch) {
      this.catchUp();
      return;
    }
    const taken = writes.filter((w) => newRows(m, w) && readsBackAsIs(w));
    for (const w of taken) {
      m.chunks.removePath(w.file.path);
      m.docs.removePath(w.file.path);
      this.dirty.delete(w.file.path);
    }
    const origins = new Map<string, FileOrigin>();
    for (const w of taken) for (const c of w.chunks) addChunk(m, c as unknown as Raw, origins);
    for (const w of taken) if (w.doc) addDoc(m, w.doc as unknown as Raw, origins);
    m.chunks.index.compactIfDue();
    m.docs.index.compactIfDue();
    this.applied += taken.length;
    // The rest stay marked, and are read back.
    if (this.dirty.size > 0) this.catchUp();
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

  /** Whether searches are answered from memory once it is built (not disabled, not closed). */
  get enabled(): boolean {
    return !this.closed;
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

const wellFormed = (v: unknown): boolean =>
  typeof v === 'string' && (v as unknown as { isWellFormed(): boolean }).isWellFormed();
const int32 = (v: unknown): boolean => typeof v === 'number' && (v | 0) === v && !Object.is(v, -0);

function originReadsBack(r: Raw): boolean {
  return ['folder', 'path', 'rel', 'kind', 'ext'].every((c) => wellFormed(r[c])) && typeof r.mtime === 'number';
}

/** Whether none of the file's written row ids is one the mirror holds for it (see SparseMemory.written). */
function newRows(m: Mirror, w: WrittenFile): boolean {
  const held = new Set(m.chunks.entriesOf(w.file.path).map((e) => e.id));
  if (w.chunks.some((c) => held.has(c.id))) return false;
  return !w.doc || m.docs.entriesOf(w.file.path)[0]?.id !== w.doc.id;
}

/** Whether every value the mirror takes from a written file reads back from LanceDB as itself. */
function readsBackAsIs(w: WrittenFile): boolean {
  const doc = w.doc as unknown as Raw | undefined;
  if (doc && !(originReadsBack(doc) && wellFormed(doc.text))) return false;
  return w.chunks.every((row) => {
    const c = row as unknown as Raw;
    return (
      originReadsBack(c) &&
      ['id', 'search_text', 'text', 'language', 'symbol', 'heading'].every((k) => wellFormed(c[k])) &&
      int32(c.start_line) &&
      int32(c.end_line) &&
      int32(c.page)
    );
  });
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
  m.docs.add({ id: r.id as string, file: originOf(r, origins) }, r.text as string);
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
