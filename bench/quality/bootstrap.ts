/**
 * Paired bootstrap over queries: the mean difference of a metric between two systems on the same
 * queries, with a 95% interval from resampling the queries (seeded: the same figures every run).
 */
import { createRng } from '../lib/prng.js';
import { evalQuery, type QueryScores, type Qrels, type Run } from './metrics.js';

export interface PairedCi {
  metric: keyof QueryScores;
  mean: number;
  low: number;
  high: number;
  /** Share of resamples where the difference is <= 0 (a one-sided p-value for "a beats b"). */
  p_not_better: number;
  queries: number;
}

export function perQuery(qrels: Qrels, run: Run): Map<string, QueryScores> {
  const out = new Map<string, QueryScores>();
  for (const [qid, judged] of qrels) {
    if (![...judged.values()].some((g) => g > 0)) continue;
    out.set(qid, evalQuery(judged, run.get(qid)));
  }
  return out;
}

export function pairedBootstrap(
  a: Map<string, QueryScores>,
  b: Map<string, QueryScores>,
  metric: keyof QueryScores,
  resamples = 2000,
  seed = 13,
): PairedCi {
  const diffs = [...a.keys()].filter((q) => b.has(q)).map((q) => a.get(q)![metric] - b.get(q)![metric]);
  const n = diffs.length;
  const mean = n ? diffs.reduce((s, d) => s + d, 0) / n : 0;
  const rng = createRng(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples && n > 0; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += diffs[rng.int(0, n - 1)];
    means.push(s / n);
  }
  means.sort((x, y) => x - y);
  const at = (p: number) => (means.length ? means[Math.min(means.length - 1, Math.floor(p * means.length))] : 0);
  return {
    metric,
    mean,
    low: at(0.025),
    high: at(0.975),
    p_not_better: means.length ? means.filter((m) => m <= 0).length / means.length : 1,
    queries: n,
  };
}
