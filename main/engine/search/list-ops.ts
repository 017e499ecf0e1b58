import type { LegResult } from './fusion.js';

/**
 * Puts the given chunks (definitions) first in a leg's list, in their order, above every other
 * entry's score; the rest keeps its order.
 */
export function promote(list: LegResult, first: { id: string; path: string; rel: string }[]): LegResult {
  if (first.length === 0) return list;
  const top = list.scores[0] ?? 1;
  const ids = new Set(first.map((f) => f.id));
  const rest = list.ids.map((_, i) => i).filter((i) => !ids.has(list.ids[i]));
  const head = first.map((f, i) => ({
    id: f.id,
    path: f.path,
    rel: f.rel,
    score: top + 1 + (first.length - i) / first.length,
  }));
  const tail = pick(list, rest);
  return {
    ...list,
    ids: [...head.map((h) => h.id), ...tail.ids],
    scores: [...head.map((h) => h.score), ...tail.scores],
    rels: [...head.map((h) => h.rel), ...(tail.rels ?? [])],
    paths: [...head.map((h) => h.path), ...(tail.paths ?? [])],
    kinds: list.kinds
      ? [
          ...head.map((h) => String((list.rows?.get(h.id) as { kind?: string } | undefined)?.kind ?? '')),
          ...(tail.kinds ?? []),
        ]
      : undefined,
  };
}

/** The entries of a list that pass a test (by position). */
export function keep(list: LegResult, ok: (i: number) => boolean): LegResult {
  return pick(list, list.ids.map((_, i) => i).filter(ok));
}

/** The entries of a leg's list at the given positions, every parallel array kept in step. */
export function pick(list: LegResult, idx: number[]): LegResult {
  const at = <T>(xs: T[] | undefined) => (xs ? idx.map((i) => xs[i]) : undefined);
  return {
    ...list,
    ids: idx.map((i) => list.ids[i]),
    scores: idx.map((i) => list.scores[i]),
    rels: at(list.rels),
    paths: at(list.paths),
    kinds: at(list.kinds),
  };
}

/** Where the lists found each id's chunk: its file's path (for places the mirror can give). */
export function pathsOf(lists: LegResult[]): (id: string) => string | undefined {
  const out = new Map<string, string>();
  for (const l of lists) l.paths?.forEach((p, i) => p && out.set(l.ids[i], p));
  return (id) => out.get(id);
}
