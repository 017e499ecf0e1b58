import type { RetrievalLeg } from '../../common/search.js';
import type { ChunkPlace } from '../index/search-reads.js';
import type { FileEntrySearch } from './legs.js';

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
}

export interface Fused {
  id: string;
  score: number;
  ranks: Partial<Record<RetrievalLeg, number>>;
}

/**
 * Weighted reciprocal rank fusion. Each leg contributes weight / (k + rank). The result is scaled
 * to 0..1 by the best score a chunk could get (rank 1 in every leg), so `min_score` means the
 * same whatever the weights.
 */
export function weightedRrf(lists: LegResult[], k: number): Fused[] {
  const acc = new Map<string, Fused>();
  let maxPossible = 0;
  for (const list of lists) {
    maxPossible += list.weight / (k + 1);
    list.ids.forEach((id, i) => {
      const f = acc.get(id) ?? { id, score: 0, ranks: {} };
      f.score += list.weight / (k + i + 1);
      const prev = f.ranks[list.leg];
      if (prev === undefined || i + 1 < prev) f.ranks[list.leg] = i + 1;
      acc.set(id, f);
    });
  }
  const out = [...acc.values()];
  if (maxPossible > 0) for (const f of out) f.score /= maxPossible;
  return out.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/**
 * Convex mix of min-max normalised scores: sum of weight * (s - min) / (max - min), divided by the
 * sum of weights. A chunk missing from a leg gets 0 from it.
 */
export function convexMix(lists: LegResult[]): Fused[] {
  const acc = new Map<string, Fused>();
  const total = lists.reduce((s, l) => s + l.weight, 0) || 1;
  for (const list of lists) {
    if (list.ids.length === 0) continue;
    const max = Math.max(...list.scores);
    const min = Math.min(...list.scores);
    const span = max - min;
    list.ids.forEach((id, i) => {
      const f = acc.get(id) ?? { id, score: 0, ranks: {} };
      const norm = span > 0 ? (list.scores[i] - min) / span : 1;
      f.score += (list.weight * norm) / total;
      if (f.ranks[list.leg] === undefined) f.ranks[list.leg] = i + 1;
      acc.set(id, f);
    });
  }
  return [...acc.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** A single leg passes through unchanged: its own score is the most meaningful one. */
export function single(list: LegResult): Fused[] {
  return list.ids.map((id, i) => ({ id, score: list.scores[i], ranks: { [list.leg]: i + 1 } }));
}

