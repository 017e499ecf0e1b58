import type { Fused, LegResult } from './fusion.js';

/** A fused entry with, under per_file, the file's other chunks it stands for. */
export interface Grouped extends Fused {
  /** With per_file: the ids of the file's other chunks in the ranking, best first. */
  others: string[];
}

/** A fused entry with no others yet; built, not spread (a spread is many times slower, per candidate). */
export function grouped(f: Fused): Grouped {
  return { id: f.id, score: f.score, ranks: f.ranks, others: [] };
}

/** Other ranges listed per file hit: enough to point at the rest of the file, not a second result list. */
const OTHER_RANGES_MAX = 10;

/**
 * One entry per file, at the rank of its best chunk. Grouping the whole ranking before top_k is
 * applied keeps the top_k prefix property (the first k files are the same whatever k).
 */
export function perFile(ranked: Fused[], lists: LegResult[]): Grouped[] {
  const pathOf = new Map<string, string>();
  for (const l of lists) l.ids.forEach((id, i) => l.paths?.[i] !== undefined && pathOf.set(id, l.paths[i]));
  const byPath = new Map<string, Grouped>();
  const out: Grouped[] = [];
  for (const f of ranked) {
    const path = pathOf.get(f.id) ?? f.id;
    const g = byPath.get(path);
    if (g) {
      if (g.others.length < OTHER_RANGES_MAX) g.others.push(f.id);
      continue;
    }
    const entry = grouped(f);
    byPath.set(path, entry);
    out.push(entry);
  }
  return out;
}
