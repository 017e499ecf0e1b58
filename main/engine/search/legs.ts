import { withPaths, type RowFilter } from '../index/row-filter.js';
import { type ChunkPlace, type VectorReads, type SearchReads } from '../index/search-reads.js';
import type { FileEntrySearch, LegResult } from './fusion.js';
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

/** A sparse entry standing for a file whose chunk is chosen only if it is shown (see sparseLeg). */
const FILE_ENTRY = 'file:';

export function isFileEntry(id: string): boolean {
  return id.startsWith(FILE_ENTRY);
}

/**
 * How much deeper than the list the chunk search reads when file entries may meet other lists
 * (`deep`): a matching file's best chunk is then mostly in that one list (56 % of the files with
 * no chunk among the best at 100k synthetic chunks, depth 5x), so its chunk is known without the
 * per-file search, which cost more than the chunk and file searches together (path IN 200 files).
 */
export const DEEP_FACTOR = 5;

/**
 * BM25 over chunks and over whole files (native LanceDB full-text indexes), fused per chunk; the
 * file's share depends on its kind (docWeightFor) and is scaled by `docScale` (0: chunks alone).
 *
 * A file that matches as a whole but has no chunk among the best chunks is ranked by its file
 * score alone (its chunk's own share is 0), so the chunk that represents it changes nothing in the
 * ranking: it is the chunk shown, and the chunk another list may also hold. It is the file's best
 * chunk for the query's words (else its first chunk), taken from the chunk search itself where it
 * is there (`deep` reads that search 5x deeper for it), else from a search of those files' chunks.
 * `lazyFiles` leaves the files whose chunk is not known yet as file entries, with the search that
 * chooses them (`fileSearch`): the searcher resolves the few it must, those another list meets
 * (resolveMetEntries) and those it shows (resolveFileEntries), instead of searching the chunks of
 * every such file before ranking (a full-text query over up to 200 files fewer in a row).
 */
export async function sparseLeg(
  reads: SearchReads,
  query: string,
  where: RowFilter | undefined,
  limit: number,
  weight: number,
  docScale = 1,
  lazyFiles = false,
  deep = false,
): Promise<LegResult> {
  // Both columns hold analysed tokens (index/analyzer.ts): the query is analysed the same way.
  const match = analyzeQuery(query);
  if (match.trim() === '') return { leg: 'sparse', weight, ids: [], scores: [], rels: [], paths: [], rows: new Map() };
  const [all, drows] = await Promise.all([
    reads.matchChunks(match, where, deep ? limit * DEEP_FACTOR : limit),
    reads.matchDocs(match, where, limit),
  ]);
  const crows = all.slice(0, limit);
  const maxC = crows[0]?.score || 1;
  const maxD = drows[0]?.score || 1;
  const docScore = new Map(drows.map((d) => [d.path, d.score / maxD]));
  const out = new Map<string, Scored>();
  const rows = new Map<string, ChunkPlace>();
  for (const c of crows) {
    out.set(c.id, {
      id: c.id,
      rel: c.rel,
      path: c.path,
      kind: c.kind,
      score: chunkScore(c.score / maxC, docScore.get(c.path) ?? 0, c.kind, docScale),
    });
    rows.set(c.id, c);
  }
  const covered = new Set(crows.map((c) => c.path));
  const missing = drows.filter((d) => !covered.has(d.path));
  // The deeper rows are best first: a file's first row there is its best chunk for these words.
  const known = new Map<string, ChunkPlace>();
  const wanted = new Set(missing.map((d) => d.path));
  for (const c of all.slice(limit)) if (wanted.has(c.path) && !known.has(c.path)) known.set(c.path, c);
  const unknown = missing.filter((d) => !known.has(d.path));
  const fileSearch: FileEntrySearch = { match, where, depth: drows.length * 4 };
  const chosen = lazyFiles || unknown.length === 0 ? [] : await bestChunks(reads, fileSearch, unknown);
  for (const s of [...known.values(), ...chosen]) {
    out.set(s.id, {
      id: s.id,
      rel: s.rel,
      path: s.path,
      kind: s.kind,
      score: chunkScore(0, docScore.get(s.path) ?? 0, s.kind, docScale),
    });
    rows.set(s.id, s);
  }
  if (lazyFiles)
    for (const d of unknown)
      out.set(FILE_ENTRY + d.path, {
        id: FILE_ENTRY + d.path,
        rel: d.rel,
        path: d.path,
        kind: d.kind,
        score: chunkScore(0, docScore.get(d.path) ?? 0, d.kind, docScale),
      });
  // Equal scores by path, then id: a file entry then sorts where the chunk it stands for would.
  const ranked = [...out.values()]
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || (a.id < b.id ? -1 : 1))
    .slice(0, limit);
  return {
    leg: 'sparse',
    weight,
    ids: ranked.map((r) => r.id),
    scores: ranked.map((r) => r.score),
    rels: ranked.map((r) => r.rel),
    paths: ranked.map((r) => r.path),
    kinds: ranked.map((r) => r.kind ?? ''),
    rows,
    fileSearch: ranked.some((r) => isFileEntry(r.id)) ? fileSearch : undefined,
  };
}

/**
 * The best chunk of each file for the search's words, else its first chunk. Searching only these
 * files at the depth the leg gives all of its files finds each one's best chunk whenever the wider
 * search would have, so the choice does not depend on which files are asked together.
 */
async function bestChunks(
  reads: SearchReads,
  search: FileEntrySearch,
  files: { path: string }[],
): Promise<ChunkPlace[]> {
  const paths = files.map((f) => f.path);
  const best = new Map<string, ChunkPlace>();
  for (const h of await reads.matchChunks(search.match, withPaths(search.where, paths), search.depth))
    if (!best.has(h.path)) best.set(h.path, h);
  const rest = paths.filter((p) => !best.has(p));
  if (rest.length > 0) {
    const firsts = await reads.chunksOf(rest);
    firsts.sort((a, b) => a.page - b.page || a.start_line - b.start_line);
    for (const f of firsts) if (!best.has(f.path)) best.set(f.path, f);
  }
  return [...best.values()];
}

/**
 * Replaces the file entries of a sparse list whose files `met` names (another list holds a chunk
 * of them, or they are the graph leg's seeds) by the chunks they stand for, as the eager leg would
 * have chosen them (bestChunks), at the same rank and score. Without this, fusion would see an
 * entry and that file's chunk in another list as two results. One query for all of them; none
 * when no entry is met.
 */
export async function resolveMetEntries(reads: SearchReads, list: LegResult, met: Set<string>): Promise<LegResult> {
  if (!list.fileSearch) return list;
  const due = list.ids.flatMap((id, i) => (isFileEntry(id) && met.has(list.paths?.[i] ?? '') ? [list.paths![i]] : []));
  if (due.length === 0) return list;
  const chosen = new Map(
    (
      await bestChunks(
        reads,
        list.fileSearch,
        due.map((path) => ({ path })),
      )
    ).map((c) => [c.path, c]),
  );
  const rows = new Map(list.rows);
  const ids = list.ids.map((id, i) => {
    const c = isFileEntry(id) ? chosen.get(list.paths?.[i] ?? '') : undefined;
    if (!c) return id;
    rows.set(c.id, c);
    return c.id;
  });
  return { ...list, ids, rows, fileSearch: ids.some(isFileEntry) ? list.fileSearch : undefined };
}

/**
 * The chunks the shown file entries stand for, as the eager leg chooses them (bestChunks), keyed
 * by file entry id. Places only: the searcher reads their text with the other hits' in one read,
 * and with the in-memory mirror current the choice itself reads nothing from LanceDB.
 */
export async function resolveFileEntries(
  reads: SearchReads,
  search: FileEntrySearch,
  entryIds: string[],
): Promise<Map<string, ChunkPlace>> {
  const chosen = await bestChunks(
    reads,
    search,
    entryIds.map((id) => ({ path: id.slice(FILE_ENTRY.length) })),
  );
  return new Map(chosen.map((c) => [FILE_ENTRY + c.path, c]));
}

/** Cosine nearest neighbours in the model's vectors table; scores are similarities (1 - distance). */
export async function vectorLeg(
  vectors: VectorReads,
  vector: Float32Array,
  where: string | undefined,
  limit: number,
  weight: number,
  weightByKind?: Readonly<Record<string, number>>,
): Promise<LegResult> {
  const rows = await vectors.nearest(vector, where, limit);
  return {
    leg: 'vector',
    weight,
    weightByKind,
    ids: rows.map((r) => r.id),
    scores: rows.map((r) => r.similarity),
    rels: rows.map((r) => r.rel),
    paths: rows.map((r) => r.path),
    kinds: rows.map((r) => r.kind),
  };
}
