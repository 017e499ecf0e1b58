import { MatchQuery, type Table } from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import { and, sqlIn } from './sql.js';
import { decodeRows, type Raw } from './arrow-rows.js';
import { filterSql, type RowFilter } from './row-filter.js';
import type { ChunkEntry, ShownColumns } from './memory-table.js';
import { SHOWN_COLUMNS, SparseMemory, type Mirror } from './sparse-memory.js';

/**
 * What the search legs read, as typed rows: the only place their LanceDB queries are written.
 * Filters (`where`) come from search/filters.ts as SQL built with index/sql.ts; the full-text
 * searches take them structured (index/row-filter.ts) and rank in memory (index/sparse-memory.ts)
 * whenever the mirror is current, else by LanceDB's full-text index over the same rows.
 */

/** Where a chunk lies (no text): enough for globs, file fusion and the graph leg's seeds. */
export interface ChunkPlace {
  id: string;
  folder: string;
  path: string;
  rel: string;
  kind: string;
  start_line: number;
  end_line: number;
  page: number;
  /** The file's mtime when the chunk was written (part of the id, so fixed for an id). */
  mtime: number;
}

export interface ChunkMatch extends ChunkPlace {
  score: number;
}

export interface DocMatch {
  path: string;
  rel: string;
  kind: string;
  score: number;
}

/** What a hit shows: for the final hits only, from the mirror when it holds the text, else read by id. */
export interface HitRow extends ChunkPlace, ShownColumns {}

export interface VectorMatch {
  id: string;
  rel: string;
  path: string;
  /** The file's kind (code, markdown, ...): the dense leg's weight can differ by kind. */
  kind: string;
  /** Cosine similarity (1 - distance). */
  similarity: number;
}

const PLACE_COLUMNS = ['id', 'folder', 'path', 'rel', 'kind', 'start_line', 'end_line', 'page', 'mtime'];
/**
 * What a hit shows beyond its place. Each column costs a random read of its own (about 0.3 ms at
 * 100k chunks), so a hit whose place is known reads these five only.
 */
const SHOWN_READ = ['id', ...SHOWN_COLUMNS];
const HIT_COLUMNS = [...PLACE_COLUMNS, ...SHOWN_COLUMNS];

/** Where the legs found an id's chunk (its file's path), so its place can be had from the mirror. */
export type PathOf = (id: string) => string | undefined;

/** Places kept for ids seen by searches; an id names one version of one chunk (index/rows.ts). */
const PLACES_KEPT = 50_000;
/** Files whose chunk lists are kept for the graph leg (a file holds a few to a few hundred chunks). */
const PATHS_KEPT = 2_000;

/** The rows of a query's answer (see decodeRows). */
async function rowsOf(query: { toArrow(): Promise<ArrowTable> }): Promise<Raw[]> {
  return decodeRows(await query.toArrow());
}

function place(r: Raw): ChunkPlace {
  return {
    id: r.id as string,
    folder: r.folder as string,
    path: r.path as string,
    rel: r.rel as string,
    kind: r.kind as string,
    start_line: r.start_line as number,
    end_line: r.end_line as number,
    page: r.page as number,
    mtime: r.mtime as number,
  };
}

function hitRow(at: ChunkPlace, r: Raw): HitRow {
  return {
    ...at,
    language: r.language as string,
    text: r.text as string,
    symbol: r.symbol as string,
    heading: r.heading as string,
  };
}

/** Best first; rows not yet folded into the index are scored by a flat scan and appended, not merged. */
function byScore<T extends { score: number; path: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Chunks best first; equal scores in one file in reading order, so no tie depends on LanceDB's row order. */
function chunksByScore<T extends ChunkMatch>(rows: T[]): T[] {
  return rows.sort(
    (a, b) =>
      b.score - a.score ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.page - b.page ||
      a.start_line - b.start_line ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

export class SearchReads {
  /**
   * A chunk id hashes its file's path, content hash and mtime and the chunk's place (index/rows.ts),
   * so the place read for an id never changes; only whether the id still exists does. Entries of
   * a path are dropped when the store writes or removes it (forgetPaths/forgetAll), so a cached
   * place is always one of a live chunk, exactly as a read would find it.
   */
  private readonly places = new Map<string, ChunkPlace>();
  /** Each file's chunk places, kept by chunksOf (see there); dropped with the file's places. */
  private readonly byPath = new Map<string, ChunkPlace[]>();
  /** Bumped by every forget: a read that began before one may hold rows it replaced and is not kept. */
  private generation = 0;

  /** The full-text tables in memory; LanceDB answers until it is built. */
  readonly memory: SparseMemory;

  constructor(
    private chunks: Table,
    private docs: Table,
  ) {
    this.memory = new SparseMemory(() => ({ chunks: this.chunks, docs: this.docs }));
  }

  /** The store reopened its tables (index/handles.ts); cached places stay valid, rows are the same. */
  rebind(chunks: Table, docs: Table): void {
    this.chunks = chunks;
    this.docs = docs;
    this.memory.rebound();
  }

  /** BM25 over the chunks' analysed text (`match`: analysed tokens), best first. */
  async matchChunks(match: string, filter: RowFilter | undefined, limit: number): Promise<ChunkMatch[]> {
    const mirrored = await this.memory.serve((m) => memoryChunks(m, match, filter, limit));
    if (mirrored) return mirrored;
    // Places LanceDB gave are kept; the mirror's need no keeping (knownPlaces asks it by path).
    const g = this.generation;
    const out = (await fts(this.chunks, 'search_text', match, filterSql(filter), limit, PLACE_COLUMNS)).map((r) => ({
      ...place(r),
      score: r._score as number,
    }));
    this.remember(out, g);
    return chunksByScore(out);
  }

  /** BM25 over whole files (one row per file), best first. */
  async matchDocs(match: string, filter: RowFilter | undefined, limit: number): Promise<DocMatch[]> {
    const kept = await this.memory.serve((m) =>
      m.docs.best(
        match,
        filter,
        limit,
        (e, score): DocMatch => ({ path: e.file.path, rel: e.file.rel, kind: e.file.kind, score }),
        byScore,
      ),
    );
    if (kept) return kept;
    const rows = await fts(this.docs, 'text', match, filterSql(filter), limit, ['path', 'rel', 'kind']);
    return byScore(
      rows.map((r) => ({
        path: r.path as string,
        rel: r.rel as string,
        kind: r.kind as string,
        score: r._score as number,
      })),
    );
  }

  /**
   * Every chunk of the given files, in no particular order. Without a `where`, the in-memory mirror
   * answers when it holds what LanceDB holds (it knows every live chunk's file and place), else
   * each file's list read is kept (the graph leg asks for the same neighbouring files search after
   * search) and dropped with the file's places when the store writes or removes it, so a kept list
   * is what a read would find.
   */
  async chunksOf(paths: string[], where?: string): Promise<ChunkPlace[]> {
    if (paths.length === 0) return [];
    if (where === undefined) {
      const mirrored = await this.memory.serve((m) => paths.flatMap((p) => m.chunks.entriesOf(p).map(entryPlace)));
      if (mirrored) return mirrored;
    }
    const kept = where === undefined ? paths.flatMap((p) => this.byPath.get(p) ?? []) : [];
    const unread = where === undefined ? paths.filter((p) => !this.byPath.has(p)) : paths;
    if (unread.length === 0) return kept;
    const g = this.generation;
    const rows = await rowsOf(
      this.chunks
        .query()
        .where(and(sqlIn('path', unread), where) ?? 'true')
        .select(PLACE_COLUMNS),
    );
    const out = rows.map(place);
    this.remember(out, g);
    if (where === undefined && g === this.generation) {
      const lists = new Map<string, ChunkPlace[]>(unread.map((p) => [p, []]));
      for (const r of out) lists.get(r.path)?.push(r);
      for (const [p, list] of lists) {
        if (this.byPath.size >= PATHS_KEPT) this.byPath.delete(this.byPath.keys().next().value as string);
        this.byPath.set(p, list);
      }
    }
    return [...kept, ...out];
  }

  /**
   * Places of the given chunk ids; ids that no longer exist are absent. Known places come from
   * the cache (see `places`) or, for ids whose file `pathOf` names, from the mirror; the rest are read.
   */
  async placesOf(ids: string[], pathOf?: PathOf): Promise<Map<string, ChunkPlace>> {
    const out = new Map<string, ChunkPlace>();
    for (const [id, k] of await this.known(ids, pathOf)) out.set(id, k.place);
    const unread = ids.filter((id) => !out.has(id));
    if (unread.length > 0) {
      const g = this.generation;
      const rows = (await rowsOf(this.chunks.query().where(sqlIn('id', unread)).select(PLACE_COLUMNS))).map(place);
      this.remember(rows, g);
      for (const r of rows) out.set(r.id, r);
    }
    return out;
  }

  /**
   * What is known of `ids` without a read: an id names one version of one chunk, so a known place
   * (and text, which the mirror holds within its budget) is right as long as the id lives. The
   * cache and the mirror hold live ids only (both forget a path before its write).
   */
  private async known(
    ids: string[],
    pathOf?: PathOf,
  ): Promise<Map<string, { place: ChunkPlace; shown?: ShownColumns }>> {
    const out = new Map<string, { place: ChunkPlace; shown?: ShownColumns }>();
    const byPath = new Map<string, string[]>();
    for (const id of ids) {
      const p = this.places.get(id);
      const path = p ? undefined : pathOf?.(id);
      if (p) out.set(id, { place: p });
      else if (path !== undefined) byPath.set(path, [...(byPath.get(path) ?? []), id]);
    }
    if (byPath.size > 0)
      await this.memory.serve((m) => {
        for (const [path, wanted] of byPath)
          for (const e of m.chunks.entriesOf(path))
            if (wanted.includes(e.id)) out.set(e.id, { place: entryPlace(e), shown: e.shown });
      });
    return out;
  }

  /** The ids among `ids` whose chunks pass `clause` now. */
  async idsWhere(ids: string[], clause: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await rowsOf(
      this.chunks
        .query()
        .where(`${sqlIn('id', ids)} AND (${clause})`)
        .select(['id']),
    );
    return new Set(rows.map((r) => r.id as string));
  }

  /**
   * The final hits' rows, with their text: from the mirror where it holds them (see known), else
   * in one B-tree lookup by id, of the shown columns only when every unread hit's place is known.
   */
  async hitRows(ids: string[], pathOf?: PathOf): Promise<Map<string, HitRow>> {
    const out = new Map<string, HitRow>();
    if (ids.length === 0) return out;
    const known = await this.known(ids, pathOf);
    const unread: string[] = [];
    for (const id of ids) {
      const k = known.get(id);
      if (k?.shown) out.set(id, { ...k.place, ...k.shown });
      else unread.push(id);
    }
    if (unread.length === 0) return out;
    const all = unread.every((id) => known.has(id));
    const rows = await rowsOf(
      this.chunks
        .query()
        .where(sqlIn('id', unread))
        .select(all ? SHOWN_READ : HIT_COLUMNS),
    );
    for (const r of rows) out.set(r.id as string, hitRow(known.get(r.id as string)?.place ?? place(r), r));
    return out;
  }

  /** Called by the store for the paths it writes or removes, before the write and after its commit. */
  forgetPaths(paths: Iterable<string>): void {
    const gone = new Set(paths);
    if (gone.size === 0) return;
    this.generation++;
    this.memory.forgetPaths(gone);
    for (const [id, p] of this.places) if (gone.has(p.path)) this.places.delete(id);
    for (const p of gone) this.byPath.delete(p);
  }

  forgetAll(): void {
    this.generation++;
    this.memory.forgetAll();
    this.places.clear();
    this.byPath.clear();
  }

  /** Keeps places read by a query that began at `generation` g, unless a write came since. */
  private remember(rows: ChunkPlace[], g: number): void {
    if (g !== this.generation) return;
    for (const r of rows) {
      if (this.places.has(r.id)) continue;
      if (this.places.size >= PLACES_KEPT) this.places.delete(this.places.keys().next().value as string);
      // The place alone (a match also carries its score for this query).
      this.places.set(r.id, {
        id: r.id,
        folder: r.folder,
        path: r.path,
        rel: r.rel,
        kind: r.kind,
        start_line: r.start_line,
        end_line: r.end_line,
        page: r.page,
        mtime: r.mtime,
      });
    }
  }
}

function entryPlace(e: ChunkEntry): ChunkPlace {
  return {
    id: e.id,
    folder: e.file.folder,
    path: e.file.path,
    rel: e.file.rel,
    kind: e.file.kind,
    start_line: e.start_line,
    end_line: e.end_line,
    page: e.page,
    mtime: e.file.mtime,
  };
}

/**
 * The place with its score added, not spread into a new object: the deep chunk search makes a
 * thousand of these per query, and a spread of this shape took about 2 us each (as against 0.1)
 * and made every object twice. At 100k chunks a hybrid search then allocated 2.1 MB instead of 1.4
 * and lost 1.5 ms to minor GC instead of 0.3; p95 19.5 -> 13.9 ms.
 */
function entryMatch(e: ChunkEntry, score: number): ChunkMatch {
  const m = entryPlace(e) as ChunkMatch;
  m.score = score;
  return m;
}

function memoryChunks(m: Mirror, match: string, filter: RowFilter | undefined, limit: number): ChunkMatch[] {
  return m.chunks.best(match, filter, limit, entryMatch, chunksByScore);
}

async function fts(
  table: Table,
  column: string,
  match: string,
  where: string | undefined,
  limit: number,
  cols: string[],
): Promise<Raw[]> {
  // A MatchQuery takes the words as words: a person's `Great-circle` or `C++` is not query syntax.
  let q = table
    .query()
    .fullTextSearch(new MatchQuery(match, column))
    .select([...cols, '_score'])
    .limit(limit);
  if (where) q = q.where(where);
  return rowsOf(q);
}

/**
 * A model's vectors table (one per model, see IndexStore.vectors) as the vector leg reads it: the
 * search side holds this, never the raw table.
 */
export class VectorReads {
  constructor(private readonly table: Table) {}

  /** Cosine nearest neighbours; similarity is 1 - cosine distance. */
  nearest(vector: Float32Array, where: string | undefined, limit: number): Promise<VectorMatch[]> {
    return nearestVectors(this.table, vector, where, limit);
  }
}

async function nearestVectors(
  vectors: Table,
  vector: Float32Array,
  where: string | undefined,
  limit: number,
): Promise<VectorMatch[]> {
  let q = vectors
    .query()
    .nearestTo(vector)
    .distanceType('cosine')
    .select(['id', 'rel', 'path', 'kind', '_distance'])
    .limit(limit);
  // HNSW's default ef misses neighbours, so it searches twice as deep as it returns. No refine:
  // re-ranking with exact distances reads every candidate's full vector back (about 17 us each,
  // 3.5-4 ms of an 8 ms query at 100k chunks) to correct the 8-bit index's small distance errors.
  // At 100k chunks (model vectors, 150 stored vectors as queries, against exact search): recall@10
  // 0.988 and recall@50 0.988 without refine, 1.000 and 0.998 with it (issue 6's floor is 0.95).
  // On SciFact and CoSQA, hybrid nDCG@10 and R@100 were unchanged to four places; vector alone lost
  // 0.0001 nDCG@10 and, on SciFact, 0.007 R@100.
  q = q.ef(Math.max(200, limit * 2));
  if (where) q = q.where(where);
  const rows = await rowsOf(q);
  return rows.map((r) => ({
    id: r.id as string,
    rel: r.rel as string,
    path: r.path as string,
    kind: r.kind as string,
    similarity: 1 - (r._distance as number),
  }));
}
