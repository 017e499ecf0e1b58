import { MatchQuery, type Table } from '@lancedb/lancedb';
import { and, sqlIn } from '../index/sql.js';
import type { LegResult } from './fusion.js';
import { analyzeQuery } from '../index/analyzer.js';

interface Scored {
  id: string;
  rel: string;
  path: string;
  kind?: string;
  score: number;
}

/**
 * How much the file's own BM25 counts beside its chunk's. Chunks are small (the embedding window):
 * alone they lose the words a document spreads over several of them (SciFact nDCG@10: chunks
 * 0.632, whole documents 0.689, chunk + 3 x document 0.685). The chunk still decides which part
 * of the file is shown.
 */
export const DOC_WEIGHT = 3;

/**
 * For code the file is not the unit of an answer: a source file holds many functions, and its
 * BM25 as a whole let one file take a whole top 10 (issue 13: Python docstring queries drew their
 * top 10 from a median of one file). Its chunks (definitions) carry the evidence, the file a little.
 */
export const CODE_DOC_WEIGHT = 0.5;

export function docWeightFor(kind: string | undefined): number {
  return kind === 'code' ? CODE_DOC_WEIGHT : DOC_WEIGHT;
}

/**
 * A chunk's sparse score from its own and its file's normalised BM25 (each 0..1), scaled back to
 * 0..1. Without the division a kind's ceiling was 1 + its weight: a code file that was the best
 * match of both searches (1.5) lost to a prose file matching only the query's common words
 * (0.4 + 3 x 0.5), so in a mixed folder a unique identifier could not bring up its code file.
 * Within one kind the order is unchanged.
 */
function chunkScore(chunk: number, doc: number, kind: string | undefined, docScale: number): number {
  const w = docScale * docWeightFor(kind);
  return (chunk + w * doc) / (1 + w);
}

/** What a hit shows: read by id for the final hits only (the text is the costly column to read). */
export const HIT_COLUMNS = ['id', 'folder', 'path', 'rel', 'kind', 'language', 'start_line', 'end_line', 'page', 'text', 'symbol', 'heading', 'mtime'];

/**
 * What the legs read with their matches: enough to place a chunk (globs, file fusion, the graph
 * leg's seeds). Reading the text too for 60 candidates doubled a full-text search at 100k chunks.
 */
const LEG_COLUMNS = ['id', 'folder', 'path', 'rel', 'kind', 'start_line', 'end_line', 'page'];

type FtsRow = { id?: string; rel: string; path: string; kind?: string; start_line?: number; page?: number; _score: number } & Record<string, unknown>;

async function fts(table: Table, column: string, match: string, where: string | undefined, limit: number, cols: string[]): Promise<FtsRow[]> {
  // A MatchQuery takes the words as words: a person's `Great-circle` or `C++` is not query syntax.
  let q = table.query().fullTextSearch(new MatchQuery(match, column)).select([...cols, '_score']).limit(limit);
  if (where) q = q.where(where);
  const rows = (await q.toArray()) as FtsRow[];
  // Rows not yet folded into the index are scored by a flat scan and appended, not merged: sort.
  return rows.sort((a, b) => b._score - a._score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * BM25 over chunks and over whole files (native LanceDB full-text indexes), fused per chunk; the
 * file's share depends on its kind (docWeightFor) and is scaled by `docScale` (0: chunks alone).
 */
export async function sparseLeg(chunks: Table, docs: Table, query: string, where: string | undefined, limit: number, weight: number, docScale = 1): Promise<LegResult> {
  // Both columns hold analysed tokens (index/analyzer.ts): the query is analysed the same way.
  const match = analyzeQuery(query);
  if (match === '') return { leg: 'sparse', weight, ids: [], scores: [], rels: [], paths: [], rows: new Map() };
  const files = fts(docs, 'text', match, where, limit, ['rel', 'path', 'kind']);
  // Most matching files have no chunk among the best chunks (their words are spread over several):
  // their own best chunks are searched as soon as the files are known, beside the chunk search.
  const inFiles = files.then((d) => (d.length === 0 ? [] : fts(chunks, 'search_text', match, and(where, sqlIn('path', d.map((f) => f.path))), d.length * 4, LEG_COLUMNS)));
  const [crows, drows, frows] = await Promise.all([fts(chunks, 'search_text', match, where, limit, LEG_COLUMNS), files, inFiles]);
  const maxC = crows[0]?._score || 1;
  const maxD = drows[0]?._score || 1;
  const docScore = new Map(drows.map((d) => [d.path, d._score / maxD]));
  const kindOf = new Map(drows.map((d) => [d.path, d.kind]));
  const out = new Map<string, Scored>();
  const rows = new Map<string, Record<string, unknown>>();
  for (const c of crows) {
    out.set(c.id as string, { id: c.id as string, rel: c.rel, path: c.path, kind: c.kind, score: chunkScore(c._score / maxC, docScore.get(c.path) ?? 0, c.kind, docScale) });
    rows.set(c.id as string, c);
  }
  const covered = new Set(crows.map((c) => c.path));
  const missing = drows.filter((d) => !covered.has(d.path));
  if (missing.length > 0) {
    for (const s of await bestChunks(chunks, frows, missing)) {
      out.set(s.id, { id: s.id, rel: s.rel, path: s.path, kind: kindOf.get(s.path), score: chunkScore(0, docScore.get(s.path) ?? 0, kindOf.get(s.path), docScale) });
      rows.set(s.id, s.row);
    }
  }
  const ranked = [...out.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
  return { leg: 'sparse', weight, ids: ranked.map((r) => r.id), scores: ranked.map((r) => r.score), rels: ranked.map((r) => r.rel), paths: ranked.map((r) => r.path), kinds: ranked.map((r) => r.kind ?? ''), rows };
}

/** For files that match as a whole but had no chunk in the list: their best chunk, else their first. */
async function bestChunks(chunks: Table, inFiles: FtsRow[], files: { path: string; rel: string }[]): Promise<(Omit<Scored, 'score'> & { row: Record<string, unknown> })[]> {
  const wanted = new Set(files.map((f) => f.path));
  const best = new Map<string, Omit<Scored, 'score'> & { row: Record<string, unknown> }>();
  for (const h of inFiles) if (wanted.has(h.path) && !best.has(h.path)) best.set(h.path, { id: h.id as string, rel: h.rel, path: h.path, row: h });
  const rest = files.filter((f) => !best.has(f.path));
  if (rest.length > 0) {
    const firsts = (await chunks.query().where(sqlIn('path', rest.map((f) => f.path))).select(LEG_COLUMNS).toArray()) as ({ id: string; rel: string; path: string; start_line: number; page: number } & Record<string, unknown>)[];
    firsts.sort((a, b) => a.page - b.page || a.start_line - b.start_line);
    for (const f of firsts) if (!best.has(f.path)) best.set(f.path, { id: f.id, rel: f.rel, path: f.path, row: f });
  }
  return [...best.values()];
}

/** Cosine nearest neighbours in the model's vectors table; scores are similarities (1 - distance). */
export async function vectorLeg(vectors: Table, vector: Float32Array, where: string | undefined, limit: number, weight: number, weightByKind?: Readonly<Record<string, number>>): Promise<LegResult> {
  let q = vectors.query().nearestTo(vector).distanceType('cosine').select(['id', 'rel', 'path', 'kind', '_distance']).limit(limit);
  // Recall over speed: HNSW's default ef misses neighbours; refine re-ranks with exact distances.
  q = q.ef(Math.max(200, limit * 2)).refineFactor(2);
  if (where) q = q.where(where);
  const rows = (await q.toArray()) as { id: string; rel: string; path: string; kind: string; _distance: number }[];
  return { leg: 'vector', weight, weightByKind, ids: rows.map((r) => r.id), scores: rows.map((r) => 1 - r._distance), rels: rows.map((r) => r.rel), paths: rows.map((r) => r.path), kinds: rows.map((r) => r.kind) };
}
