/**
 * Runs every query of a test set through the engine in one mode and turns the hits into a run:
 * a hit's path maps back to its document, and a document's score is its best chunk's.
 */
import type { EngineApi } from '../../main/engine/api.js';
import type { SearchMode } from '../../main/common/search.js';
import { docIdFromPath } from './docfiles.js';
import type { Run, RunEntry } from './metrics.js';
import type { Query } from './datasets.js';

export interface ModeRun {
  run: Run;
  latencies: number[];
  /** Queries whose hits were not in descending score order (the metrics sort by score). */
  unordered: number;
}

export function hitsToEntries(hits: readonly { path: string; score: number }[]): RunEntry[] {
  const best = new Map<string, number>();
  for (const h of hits) {
    const did = docIdFromPath(h.path);
    if (did === null) continue;
    const prev = best.get(did);
    if (prev === undefined || h.score > prev) best.set(did, h.score);
  }
  return [...best].map(([did, score]) => ({ did, score }));
}

/**
 * One search per query, one hit per file (`per_file`): Recall@100 is then over 100 documents, as
 * BM25 baselines count it, not over 100 chunks of some 30-50 documents.
 */
export async function runMode(
  engine: EngineApi,
  queries: readonly Query[],
  folder: string,
  mode: SearchMode,
  topK: number,
): Promise<ModeRun> {
  const run: Run = new Map();
  const latencies: number[] = [];
  let unordered = 0;
  for (const q of queries) {
    const t0 = performance.now();
    const res = await engine.search({ query: q.text, mode, top_k: topK, folders: [folder], per_file: true });
    latencies.push(performance.now() - t0);
    if (res.hits.some((h, i) => i > 0 && h.score > res.hits[i - 1].score)) unordered++;
    run.set(q.id, hitsToEntries(res.hits));
  }
  return { run, latencies, unordered };
}
