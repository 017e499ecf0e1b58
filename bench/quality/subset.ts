/**
 * Quick mode's small version of a test set: the first N judged queries, every document they judge,
 * and a seeded sample of the other documents as distractors. Figures on a subset are not comparable
 * with the published ones (fewer distractors make every system look better); they keep CI honest
 * that the pipeline runs and the numbers are sane.
 */
import { createRng } from '../lib/prng.js';
import type { Qrels } from './metrics.js';
import type { TestSet } from './datasets.js';

export function subsetOf(set: TestSet, queryCount: number, docCount: number, seed = 20261129): TestSet {
  const judged = set.queries.filter((q) => [...(set.qrels.get(q.id)?.values() ?? [])].some((g) => g > 0));
  const queries = judged.slice(0, queryCount);
  const qrels: Qrels = new Map(queries.map((q) => [q.id, set.qrels.get(q.id) ?? new Map<string, number>()]));
  const keep = new Set<string>();
  for (const m of qrels.values()) for (const did of m.keys()) keep.add(did);
  const rest = set.docs.filter((d) => !keep.has(d.id));
  const extra = Math.max(0, docCount - keep.size);
  for (const d of createRng(seed).shuffle(rest).slice(0, extra)) keep.add(d.id);
  // Keep the corpus order so that the subset is the same whatever the sample order was.
  const docs = set.docs.filter((d) => keep.has(d.id));
  return { name: set.name, docs, queries, qrels };
}
