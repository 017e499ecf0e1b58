import { and, sqlIn } from '../index/sql.js';
import type { ChunkPlace, SearchReads } from '../index/search-reads.js';
import type { GraphIndex, GraphTarget } from '../graph/graph.js';
import { legWeight, type LegResult } from './fusion.js';
import { pathsOf } from './list-ops.js';
import type { ValidSearch } from './validate.js';

/** What the graph leg reads: the index's typed reads and the graph (the searcher's deps hold both). */
export interface GraphLegDeps {
  reads: SearchReads;
  graph: GraphIndex;
}

const SEEDS = 8;
const PER_SEED = 6;
const VIA_WEIGHT: Record<GraphTarget['via'], number> = {
  name: 1,
  reference: 0.6,
  import: 0.5,
  link: 0.5,
  /** A caller of a definition the seed holds, in a file importing the seed's. */
  imported_by: 0.3,
};

/**
 * The graph leg: definitions the query names outright, then one hop from the best chunks of the
 * other legs (what they import or link to, the definitions they call, the chunks calling theirs).
 * It ranks chunks the text legs cannot see because the words are elsewhere: the callee's body,
 * the linked page, the module that was imported.
 */
export async function graphLeg(
  deps: GraphLegDeps,
  s: ValidSearch,
  lists: LegResult[],
  folders: string[],
  where: string | undefined,
  globs: ((rel: string) => boolean) | null,
  weight: number,
): Promise<LegResult> {
  const scope = new Set(folders);
  const scored = new Map<string, { score: number; target: GraphTarget }>();
  const add = (t: GraphTarget, score: number) => {
    const key = `${t.path}\n${t.line}`;
    const prev = scored.get(key);
    if (!prev || prev.score < score) scored.set(key, { score, target: t });
  };
  for (const q of s.queries) for (const t of deps.graph.nameMatches(q, scope, 20)) add(t, VIA_WEIGHT.name);

  // A query that names a definition gets that definition from the graph; one hop around the
  // text hits would only add the pages that mention the name, which the text legs already rank.
  const seeds = scored.size > 0 ? [] : seedIds(lists, SEEDS);
  if (seeds.length > 0) {
    // Seeds the sparse leg already read need no second read; the others' places are cached by id.
    const byId = new Map<string, ChunkPlace>();
    for (const l of lists) for (const [id, r] of l.rows ?? []) byId.set(id, r);
    const unread = seeds.filter((id) => !byId.has(id));
    if (unread.length > 0) for (const [id, r] of await deps.reads.placesOf(unread, pathsOf(lists))) byId.set(id, r);
    seeds.forEach((id, rank) => {
      const r = byId.get(id);
      if (!r) return;
      // A hop inside the seed's own file adds no file the text legs did not rank, and it outvoted
      // their order within that file (CoSQA, held-out docstrings): the graph's say is on other files.
      for (const t of deps.graph.neighbours(r.folder, r.path, r.start_line, r.end_line, PER_SEED))
        if (t.path !== r.path) add(t, VIA_WEIGHT[t.via] / (1 + rank));
    });
  }
  const ranked = [...scored.values()].sort((a, b) => b.score - a.score).slice(0, 60);
  const ids = (
    await chunksAt(
      deps,
      ranked.map((r) => r.target),
      folders,
      where,
      globs,
    )
  ).map((r) => r?.id);
  const out: LegResult = { leg: 'graph', weight, ids: [], scores: [], paths: [], fullScore: VIA_WEIGHT.name };
  ranked.forEach((r, i) => {
    const id = ids[i];
    if (id && !out.ids.includes(id)) {
      out.ids.push(id);
      out.scores.push(r.score);
      out.paths?.push(r.target.path);
    }
  });
  return out;
}

/**
 * Interleaves the legs' lists so each contributes its best chunks as seeds. A leg seeds only the
 * chunks of kinds it judges: the built-in model has no say on code (weight 0 there), so its "best"
 * code chunks are arbitrary and their neighbours would be promoted on no evidence.
 */
export function seedIds(lists: LegResult[], n = SEEDS): string[] {
  const seen: string[] = [];
  for (let i = 0; seen.length < n && lists.some((l) => i < l.ids.length); i++) {
    for (const l of lists) {
      if (i >= l.ids.length || seen.includes(l.ids[i])) continue;
      if (l.weight > 0 && legWeight(l, l.kinds?.[i] || undefined) === 0) continue;
      seen.push(l.ids[i]);
    }
  }
  return seen.slice(0, n);
}

/** The chunk holding each target line, in one query for all target files. */
async function chunksAt(
  deps: GraphLegDeps,
  targets: GraphTarget[],
  folders: string[],
  where: string | undefined,
  globs: ((rel: string) => boolean) | null,
): Promise<(ChunkPlace | undefined)[]> {
  if (targets.length === 0) return [];
  const paths = [...new Set(targets.map((t) => t.path))];
  // Without filters the files' chunk lists come from the reads' cache; the folders are checked here.
  const scope = new Set(folders);
  const rows = await deps.reads.chunksOf(paths, where === undefined ? undefined : and(sqlIn('folder', folders), where));
  const byPath = new Map<string, ChunkPlace[]>();
  for (const r of rows) {
    if (!scope.has(r.folder) || (globs && !globs(r.rel))) continue;
    const list = byPath.get(r.path) ?? [];
    list.push(r);
    byPath.set(r.path, list);
  }
  return targets.map((t) => {
    const list = byPath.get(t.path);
    if (!list) return undefined;
    return (
      list.find((c) => c.start_line <= t.line && c.end_line >= t.line) ??
      list.reduce((a, b) => (a.start_line <= b.start_line ? a : b))
    );
  });
}

/**
 * The chunks that define the code names a query mentions (from the graph's definitions), best
 * first: the answer to a query naming a function is its definition, not the files that call it.
 * Of a definition's chunks, the one the given list ranks best is taken (the window that names
 * it); a definition the list missed gets the chunk holding its first line.
 */
export async function definitionChunks(
  deps: GraphLegDeps,
  query: string,
  folders: string[],
  where: string | undefined,
  ranked: LegResult,
): Promise<{ id: string; path: string; rel: string }[]> {
  const word = query.trim();
  const targets = /^[A-Za-z_$][\w$]*$/.test(word)
    ? deps.graph.codeDefinitions(word.replace(/\$/g, ''), new Set(folders), 20)
    : deps.graph.nameMatches(query, new Set(folders), 20);
  if (targets.length === 0) return [];
  const out: { id: string; path: string; rel: string }[] = [];
  const add = (o: { id: string; path: string; rel: string }) => out.some((x) => x.id === o.id) || out.push(o);
  const missed: GraphTarget[] = [];
  for (const t of targets) {
    const end = t.endLine ?? t.line;
    const i = ranked.ids.findIndex((id) => {
      const r = ranked.rows?.get(id);
      return r?.path === t.path && r.start_line <= end && r.end_line >= t.line;
    });
    if (i >= 0) add({ id: ranked.ids[i], path: t.path, rel: ranked.rels?.[i] ?? '' });
    else missed.push(t);
  }
  for (const r of await chunksAt(deps, missed, folders, where, null))
    if (r) add({ id: r.id, path: r.path, rel: r.rel });
  return out;
}
