import type { RetrievalLeg } from '../../common/search.js';
import type { ChunkPlace } from '../index/search-reads.js';
import type { RowFilter } from '../index/row-filter.js';

/** The search that chooses the chunk of a file entry: the files' best chunk for the same words. */
export interface FileEntrySearch {
  match: string;
  where: RowFilter | undefined;
  /** The depth of the per-file chunk search, as the eager leg runs it (4 x the files it searches). */
  depth: number;
}

/** One leg's ranked list: chunk ids best first, with the leg's own score. */
export interface LegResult {
  leg: RetrievalLeg;
  weight: number;
  ids: string[];
  scores: number[];
  /** Folder-relative path of each chunk (for glob filters). */
  rels?: string[];
  /** Absolute path of each chunk's file (for file-level fusion). */
  paths?: string[];
  /** Where each chunk lies (folder, path, lines; no text) when the leg read it from the chunks table. */
  rows?: Map<string, ChunkPlace>;
  /** Set when the list holds file entries (sparseLeg's lazyFiles): how their chunks are chosen. */
  fileSearch?: FileEntrySearch;
  /** The kind of each chunk's file (`code`, `markdown`, …), when the leg read it. */
  kinds?: string[];
  /**
   * The leg's weight for chunks of a kind, where it differs from `weight`: a model that cannot
   * represent code (the built-in USE-lite) judges prose, not source files (legWeight).
   */
  weightByKind?: Readonly<Record<string, number>>;
  /**
   * The best score the leg can give, when its scores are on a fixed scale (the graph leg's: 1 for
   * a definition the query names, less for a hop, less again from a lower seed). Convex fusion
   * divides by it instead of min-max normalising, which made the best of a few weak hops count as
   * much as a named definition.
   */
  fullScore?: number;
}

/** A leg's weight for a chunk of the given kind (its own weight when the kind is unknown or not listed). */
export function legWeight(list: LegResult, kind: string | undefined): number {
  return (kind !== undefined ? list.weightByKind?.[kind] : undefined) ?? list.weight;
}

/** The kind of every chunk any leg read, for the per-kind weights. */
function kindsOf(lists: LegResult[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of lists) l.kinds?.forEach((k, i) => k === '' || out.has(l.ids[i]) || out.set(l.ids[i], k));
  return out;
}

/**
 * Each chunk's score is divided by the most its own kind's weights allow: a leg that does not judge
 * a kind (weight 0) neither adds to nor caps the chunks of that kind, so in a mixed folder a code
 * chunk is not held below prose for lacking the dense leg's vote, and in a code folder the order
 * is the other legs' order.
 */
function ceilingFor(lists: LegResult[], kind: string | undefined, perLeg: (w: number) => number): number {
  return lists.reduce((sum, l) => sum + perLeg(legWeight(l, kind)), 0);
}

export interface Fused {
  id: string;
  score: number;
  ranks: Partial<Record<RetrievalLeg, number>>;
}

const bestRank = (f: Fused) => Math.min(...Object.values(f.ranks));

/** Equal fused scores keep the legs' own order (their best rank: the sparse leg breaks its ties by path), then id. */
function byFusedScore(a: Fused, b: Fused): number {
  return b.score - a.score || bestRank(a) - bestRank(b) || a.id.localeCompare(b.id);
}

/**
 * Weighted reciprocal rank fusion. Each leg contributes weight / (k + rank). The result is scaled
 * to 0..1 by the best score a chunk could get (rank 1 in every leg), so `min_score` means the
 * same whatever the weights.
 */
export function weightedRrf(lists: LegResult[], k: number): Fused[] {
  const acc = new Map<string, Fused>();
  const kinds = kindsOf(lists);
  for (const list of lists) {
    list.ids.forEach((id, i) => {
      const w = legWeight(list, kinds.get(id));
      // A leg that does not judge this kind has no say on it, not even a rank.
      if (w === 0 && list.weight > 0) return;
      const f = acc.get(id) ?? { id, score: 0, ranks: {} };
      f.score += w / (k + i + 1);
      const prev = f.ranks[list.leg];
      if (prev === undefined || i + 1 < prev) f.ranks[list.leg] = i + 1;
      acc.set(id, f);
    });
  }
  const out = [...acc.values()];
  for (const f of out) {
    const maxPossible = ceilingFor(lists, kinds.get(f.id), (w) => w / (k + 1));
    if (maxPossible > 0) f.score /= maxPossible;
  }
  return out.sort(byFusedScore);
}

/**
 * Convex mix of min-max normalised scores: sum of weight * (s - min) / (max - min), divided by the
 * sum of weights (each for the chunk's kind). A chunk missing from a leg gets 0 from it.
 */
export function convexMix(lists: LegResult[]): Fused[] {
  const acc = new Map<string, Fused>();
  const kinds = kindsOf(lists);
  for (const list of lists) {
    if (list.ids.length === 0) continue;
    const max = list.fullScore ?? Math.max(...list.scores);
    const min = list.fullScore !== undefined ? 0 : Math.min(...list.scores);
    const span = max - min;
    list.ids.forEach((id, i) => {
      const w = legWeight(list, kinds.get(id));
      if (w === 0 && list.weight > 0) return;
      const f = acc.get(id) ?? { id, score: 0, ranks: {} };
      const norm = span > 0 ? (list.scores[i] - min) / span : 1;
      f.score += w * norm;
      if (f.ranks[list.leg] === undefined) f.ranks[list.leg] = i + 1;
      acc.set(id, f);
    });
  }
  for (const f of acc.values()) f.score /= ceilingFor(lists, kinds.get(f.id), (w) => w) || 1;
  return [...acc.values()].sort(byFusedScore);
}

/** A single leg passes through unchanged: its own score is the most meaningful one. */
export function single(list: LegResult): Fused[] {
  return list.ids.map((id, i) => ({ id, score: list.scores[i], ranks: { [list.leg]: i + 1 } }));
}
