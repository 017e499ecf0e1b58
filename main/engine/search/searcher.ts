import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  TOP_K_MAX,
  type Freshness,
  type RetrievalLeg,
  type SearchHit,
  type SearchMode,
  type SearchResponse,
  type LineRange,
} from '../../common/search.js';
import type { SearchDefaults, SearchRequest } from '../../common/requests.js';
import { CairnError } from '../errors.js';
import type { Embedder } from '../types.js';
import type { GraphIndex } from '../graph/graph.js';
import type { ChunkPlace, HitRow, PathOf, SearchReads, VectorReads } from '../index/search-reads.js';
import { dateClause, globMatcher, inFolders, rowFilter, whereClause } from './filters.js';
import type { RowFilter } from '../index/row-filter.js';
import {
  convexMix,
  legWeight,
  single,
  weightedRrf,
  type FileEntrySearch,
  type Fused,
  type LegResult,
} from './fusion.js';
import { isFileEntry, resolveFileEntries, resolveMetEntries, sparseLeg, vectorLeg } from './legs.js';
import { numberLines } from './snippet.js';
import { validateSearch, type ValidSearch } from './validate.js';
import { definitionChunks, graphLeg, seedIds } from './graph-leg.js';
import { keep, pathsOf, pick, promote } from './list-ops.js';
import { grouped, perFile, type Grouped } from './per-file.js';
import { identifiers } from '../graph/graph.js';

/** What the searcher needs from the engine; injected so the searcher holds no engine state. */
export interface SearchDeps {
  /** The index's typed reads (index/search-reads.ts): the legs write no query of their own. */
  reads: SearchReads;
  graph: GraphIndex;
  freshness(folder: string): Freshness;
  /** Contract problems found when the index was opened or the configuration changed. */
  contract(): { sparse: CairnError | null; embedding: CairnError | null };
  /**
   * The query embedder and the model's vectors table; throws a typed error when unavailable.
   * `weight` is the model's measured fusion weight, `codeWeight` its weight on source files where
   * measured apart (a model that cannot represent code).
   */
  vectors(): Promise<{ embedder: Embedder; vectors: VectorReads; weight: number; codeWeight?: number }>;
  /** Read once per search, from one settings snapshot. */
  settings(): SearchSettings;
  waitForFresh(folders: string[], timeoutMs: number): Promise<void>;
}

export interface SearchSettings {
  /** The indexed folders. */
  folders: string[];
  fusion: 'weighted_rrf' | 'convex';
  rrfK: number;
  vectorWeight: number | null;
  /** Override of the dense weight on code chunks (null: the model's measured code weight). */
  vectorWeightCode: number | null;
  graphWeight: number;
}

const NEEDS: Record<SearchMode, RetrievalLeg[]> = {
  vector: ['vector'],
  sparse: ['sparse'],
  hybrid: ['sparse', 'vector'],
  tribrid: ['sparse', 'vector', 'graph'],
};

export const WAIT_FOR_FRESH_MS = 10_000;
/** Each hit's share of max_chars never cuts its snippet below this; the MCP result then leaves hits out instead. */
const MIN_SNIPPET_CHARS = 200;

/** Below this share of known words (Embedder.coverage) the vector leg abstains on a query. */
export const MIN_COVERAGE = 0.5;

/** Candidates each leg returns, whatever top_k: twice the largest top_k, so fusion can reorder. */
export const CANDIDATE_DEPTH = 2 * TOP_K_MAX;

export class Searcher {
  constructor(private readonly deps: SearchDeps) {}

  async search(req: SearchRequest, defaults: SearchDefaults): Promise<SearchResponse> {
    const started = performance.now();
    const s = validateSearch(req, defaults);
    // Read once per search: the values stay consistent even if the settings change meanwhile.
    const cfg = this.deps.settings();
    const folders = this.scope(s, cfg.folders);
    const needs = NEEDS[s.mode];
    const contract = this.deps.contract();
    if (needs.includes('sparse') && contract.sparse) throw contract.sparse;
    if (needs.includes('vector') && contract.embedding) throw contract.embedding;
    if (s.freshness === 'wait_for_fresh') await this.deps.waitForFresh(folders, WAIT_FOR_FRESH_MS);

    // Searching every folder needs no folder clause: the index holds only indexed folders, and
    // inFolders drops anything else (rows of a folder being removed) before ranking.
    const prefilter = new Set(folders).size === cfg.folders.length ? null : folders;
    const filter = rowFilter(s, prefilter);
    const where = whereClause(s, prefilter);
    const globs = globMatcher(s.globs);
    // Globs are applied after ranking, so ask each leg for more when they may drop results. The
    // depth never depends on top_k: the first k hits of a search are the hits of the same search
    // with top_k k (fusion and normalisation see the same candidates whatever is asked for).
    const depth = CANDIDATE_DEPTH * (globs ? 4 : 1);
    const inScope = inFolders(folders);
    const abstained: { leg: RetrievalLeg; reason: string }[] = [];
    const lists = (
      await this.runLegs(
        s,
        needs,
        folders,
        { filter, sql: where },
        whereClause(s, prefilter, false),
        depth,
        cfg,
        abstained,
      )
    ).map((l) => keep(l, (i) => inScope(l.paths?.[i] ?? '')));
    const filtered = globs ? lists.map((l) => keep(l, (i) => globs(l.rels?.[i] ?? ''))) : lists;
    if (needs.includes('graph')) {
      // The seeds' places are read by id: a file entry among them is resolved to its chunk first.
      await this.resolveMet(filtered, new Set(seedIds(filtered).flatMap((id) => (isFileEntry(id) ? [id] : []))));
      const graph = await graphLeg(this.deps, s, filtered, folders, where, globs, cfg.graphWeight);
      await this.resolveMet(filtered, new Set(graph.paths));
      filtered.push(graph);
    }

    const ranked = this.fuse(s.mode, filtered, cfg).filter((f) => s.minScore === null || f.score >= s.minScore);
    const shown = s.perFile ? perFile(ranked, filtered).slice(0, s.topK) : ranked.slice(0, s.topK).map(grouped);
    const hits = await this.hydrate(
      shown,
      s,
      folders,
      filtered.find((l) => l.fileSearch)?.fileSearch,
      pathsOf(filtered),
    );
    const freshness = Object.fromEntries(folders.map((f) => [f, this.deps.freshness(f)]));
    // A leg that abstained on every query did not answer.
    const silent = new Set(
      abstained.filter((a) => abstained.filter((b) => b.leg === a.leg).length === s.queries.length).map((a) => a.leg),
    );
    const res: SearchResponse = {
      hits,
      mode: s.mode,
      legs_answered: needs.filter((l) => !silent.has(l)),
      folders: freshness,
      took_ms: Math.round(performance.now() - started),
    };
    if (abstained.length > 0) {
      res.legs_abstained = abstained;
      const legs = [...new Set(abstained.map((a) => a.leg))];
      for (const h of hits) h.legs_abstained = legs;
    }
    return res;
  }

  /**
   * Resolves, in place, the file entries of the sparse lists that `met` names: by path (another
   * list holds a chunk of the file) or by entry id (a graph seed).
   */
  private async resolveMet(lists: LegResult[], met: Set<string>): Promise<void> {
    if (met.size === 0) return;
    for (const [i, l] of lists.entries()) {
      if (!l.fileSearch) continue;
      const byEntry = l.ids.flatMap((id, k) => (met.has(id) ? [l.paths?.[k] ?? ''] : []));
      lists[i] = await resolveMetEntries(this.deps.reads, l, byEntry.length > 0 ? new Set([...met, ...byEntry]) : met);
    }
  }

  private scope(s: ValidSearch, known: string[]): string[] {
    if (s.folders === null) return known;
    const unknown = s.folders.filter((f) => !known.includes(f.replace(/[\\/]+$/, '')));
    if (unknown.length > 0)
      throw new CairnError('invalid_argument', `not an indexed folder: ${unknown.join(', ')}`, {
        details: { key: 'folders', known },
      });
    return s.folders.map((f) => f.replace(/[\\/]+$/, ''));
  }

  private async runLegs(
    s: ValidSearch,
    needs: RetrievalLeg[],
    folders: string[],
    { filter, sql: where }: { filter: RowFilter | undefined; sql: string | undefined },
    vectorWhere: string | undefined,
    depth: number,
    cfg: SearchSettings,
    abstained: { leg: RetrievalLeg; reason: string }[],
  ): Promise<LegResult[]> {
    const lists: LegResult[] = [];
    let vec: Awaited<ReturnType<SearchDeps['vectors']>> | null = null;
    if (needs.includes('vector')) {
      try {
        vec = await this.deps.vectors();
      } catch (err) {
        const cause = err instanceof CairnError ? err.message : String(err);
        throw new CairnError(
          'required_retrieval_leg_failed',
          `The vector leg is required by mode ${s.mode} but cannot run: ${cause}`,
          {
            remedy:
              s.mode === 'vector'
                ? 'Fix the embedding model (see status) or search in sparse mode.'
                : 'Fix the embedding model (see status) or use mode "sparse".',
            details: { leg: 'vector', cause: err instanceof CairnError ? err.toBody() : cause },
          },
        );
      }
    }
    const baseWeight = cfg.vectorWeight ?? vec?.weight ?? 0.2;
    const codeWeight = cfg.vectorWeightCode ?? vec?.codeWeight ?? baseWeight;
    // Only a lone sparse list (no other list meets its ids, no other query's list is fused with it)
    // may leave the chunks of file-level matches to be chosen when they are shown. Beside the dense
    // leg of the same query, the entries the dense list meets are resolved before fusion; with the
    // chunk search read deeper, most files' chunks are known without a search of their own.
    const alone = needs.length === 1 && needs[0] === 'sparse' && s.queries.length === 1;
    const besideDense = needs.includes('vector') && needs.includes('sparse') && s.queries.length === 1;
    for (const q of s.queries) {
      // Embeddings blur identifiers (`reconcileAccounts`): a query that is mostly code names leans on the exact legs.
      const names = looksLikeIdentifiers(q) || this.namesADefinition(q, folders);
      const shape = names ? 0.25 : 1;
      const vectorWeight = baseWeight * shape;
      // Looking up a name is looking for its definition: the chunk that defines it beats a short
      // file that merely mentions it, so file-level evidence stays out.
      const docScale = names ? 0 : 1;
      // The dense leg is started first (its LanceDB query runs on LanceDB's threads) and the lists
      // keep the order sparse, dense: fusion breaks ties by list order.
      let dense: Promise<LegResult> | null = null;
      const coverage = vec ? vec.embedder.coverage(q) : 1;
      if (vec && coverage < MIN_COVERAGE) {
        // Its vector would be the same for any such query: a fixed list at a plausible score.
        abstained.push({
          leg: 'vector',
          reason: `the embedding model ${vec.embedder.modelId} knows ${Math.round(coverage * 100)}% of the query's words (below ${MIN_COVERAGE * 100}%): it cannot represent this query${s.queries.length > 1 ? ` ("${q.slice(0, 60)}")` : ''}`,
        });
      } else if (vec) {
        const v = vec;
        // Alone (vector mode) the leg is the ranking; fused, its say on a code chunk is the model's code weight.
        const alone = needs.length === 1;
        dense = this.leg('vector', async () =>
          this.datesOnChunks(
            s,
            await vectorLeg(
              v.vectors,
              await v.embedder.embedQuery(q),
              vectorWhere,
              depth,
              alone ? 1 : vectorWeight,
              alone ? undefined : { code: codeWeight * shape },
            ),
          ),
        );
      }
      const tasks: Promise<LegResult>[] = [];
      if (needs.includes('sparse')) {
        const started = dense;
        tasks.push(
          this.leg('sparse', async () => {
            // It scores in memory, on this thread, for milliseconds: after a turn of the event loop,
            // so that the dense leg's query is under way meanwhile, not queued behind it.
            if (started) await nextTurn();
            const lazy = (alone || besideDense) && !names;
            const list = await sparseLeg(this.deps.reads, q, filter, depth, 1, docScale, lazy, besideDense && lazy);
            // A definition outranks the chunks that mention its name, in every mode with this leg.
            return names ? promote(list, await definitionChunks(this.deps, q, folders, where, list)) : list;
          }),
        );
      }
      if (dense) tasks.push(dense);
      const answered = await Promise.all(tasks);
      const denseList = answered.find((l) => l.leg === 'vector');
      if (denseList) await this.resolveMet(answered, new Set(denseList.paths));
      // Every candidate of a kind the model has no say on (code, for a model that cannot read it): it said nothing.
      if (
        vec &&
        denseList &&
        denseList.ids.length > 0 &&
        denseList.kinds?.every((k) => legWeight(denseList, k) === 0)
      ) {
        abstained.push({
          leg: 'vector',
          reason: `the embedding model ${vec.embedder.modelId} has no say on code files (its weight on code is 0: search.vector_weight_code or the model's measured code weight), and every candidate it found is code${s.queries.length > 1 ? ` ("${q.slice(0, 60)}")` : ''}`,
        });
      }
      lists.push(...answered);
    }
    return lists;
  }

  /** A one-word query that is the exact name of a code definition in the searched folders. */
  private namesADefinition(q: string, folders: string[]): boolean {
    const w = q.trim();
    return (
      /^[A-Za-z_$][\w$]*$/.test(w) &&
      w.length >= 3 &&
      this.deps.graph.codeDefinitions(w, new Set(folders), 1).length > 0
    );
  }

  /** Applies the date filters to vector candidates by their chunks' current mtime. */
  private async datesOnChunks(s: ValidSearch, list: LegResult): Promise<LegResult> {
    const dates = dateClause(s);
    if (!dates || list.ids.length === 0) return list;
    const keep = await this.deps.reads.idsWhere(list.ids, dates);
    const idx = list.ids.map((_, i) => i).filter((i) => keep.has(list.ids[i]));
    return pick(list, idx);
  }

  /** A leg the mode requires either answers or fails the whole search: no partial results. */
  private async leg(name: RetrievalLeg, run: () => Promise<LegResult>): Promise<LegResult> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof CairnError) throw err;
      throw new CairnError('required_retrieval_leg_failed', `The ${name} leg failed: ${(err as Error).message}`, {
        details: { leg: name },
      });
    }
  }

  private fuse(mode: SearchMode, lists: LegResult[], cfg: SearchSettings): Fused[] {
    if (lists.length === 1) return single(lists[0]);
    if (mode === 'sparse' || mode === 'vector') return weightedRrf(lists, cfg.rrfK);
    return cfg.fusion === 'convex' ? convexMix(lists) : weightedRrf(lists, cfg.rrfK);
  }

  /** The rows of the hits `ids` name, file entries resolved to their chunks (`idOf`), in one read. */
  private async shownRows(
    ids: string[],
    fileSearch: FileEntrySearch | undefined,
    pathOf: PathOf,
  ): Promise<{ byId: Map<string, HitRow>; idOf: (id: string) => string | undefined }> {
    const entries = ids.filter(isFileEntry);
    const choose = (es: string[]) =>
      es.length > 0 && fileSearch ? resolveFileEntries(this.deps.reads, fileSearch, es) : new Map<string, ChunkPlace>();
    const chosen = await choose(entries);
    const idOf = (id: string) => (isFileEntry(id) ? chosen.get(id)?.id : id);
    // A chosen chunk's file is the entry's; other ids' files are where the legs found them.
    const where = (id: string) => [...chosen.values()].find((c) => c.id === id)?.path ?? pathOf(id);
    const byId = await this.deps.reads.hitRows(
      ids.flatMap((id) => idOf(id) ?? []),
      where,
    );
    // A chunk replaced by a write since it was chosen: chosen again, from what the write left.
    const stale = entries.filter((e) => chosen.has(e) && !byId.has(chosen.get(e)?.id ?? ''));
    if (stale.length > 0) {
      for (const [e, c] of await choose(stale)) chosen.set(e, c);
      for (const [id, r] of await this.deps.reads.hitRows(
        stale.flatMap((e) => chosen.get(e)?.id ?? []),
        where,
      ))
        byId.set(id, r);
    }
    return { byId, idOf };
  }

  private async hydrate(
    fused: Grouped[],
    s: ValidSearch,
    folders: string[],
    fileSearch: FileEntrySearch | undefined,
    pathOf: PathOf,
  ): Promise<SearchHit[]> {
    if (fused.length === 0) return [];
    // One read by id (a B-tree lookup) for the final hits: the legs read no text. File entries
    // (a lone sparse list) get their chunks chosen first (in memory when the mirror is current),
    // so that their text is read in the same read.
    const otherIds = fused.flatMap((f) => f.others);
    const [places, { byId, idOf }] = await Promise.all([
      otherIds.length > 0 ? this.deps.reads.placesOf(otherIds, pathOf) : new Map<string, ChunkPlace>(),
      this.shownRows(
        fused.map((f) => f.id),
        fileSearch,
        pathOf,
      ),
    ]);
    const ranges = new Map<string, LineRange>();
    for (const [id, r] of places)
      ranges.set(
        id,
        r.page > 0
          ? { start_line: r.start_line, end_line: r.end_line, page: r.page }
          : { start_line: r.start_line, end_line: r.end_line },
      );
    const scope = new Set(folders);
    const budget = Math.max(MIN_SNIPPET_CHARS, Math.floor(s.maxChars / Math.max(1, fused.length)));
    const hits: SearchHit[] = [];
    for (const f of fused) {
      const r: HitRow | undefined = byId.get(idOf(f.id) ?? '');
      // A vector whose chunk was replaced since the leg ran: the chunk is gone, so is the hit.
      if (!r || !scope.has(r.folder)) continue;
      const hit: SearchHit = {
        path: r.path,
        folder: r.folder,
        start_line: r.start_line,
        end_line: r.end_line,
        snippet: numberLines(r.text, r.start_line, budget),
        score: round(f.score),
        legs: f.ranks,
        kind: r.kind,
        modified_at: new Date(r.mtime).toISOString(),
        freshness: this.deps.freshness(r.folder),
      };
      if (r.page > 0) hit.page = r.page;
      if (r.language) hit.language = r.language;
      if (r.symbol) hit.symbol = r.symbol;
      if (r.heading) hit.heading = r.heading;
      if (s.perFile) hit.other_ranges = f.others.flatMap((id) => ranges.get(id) ?? []);
      hits.push(hit);
    }
    return hits;
  }
}

function looksLikeIdentifiers(q: string): boolean {
  const words = q.trim().split(/\s+/);
  return words.length <= 3 && identifiers(q).length >= Math.ceil(words.length / 2);
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
