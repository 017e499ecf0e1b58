/**
 * nDCG@10, Recall@100 and MRR@10, ported from ../shared/datasets/eval.mjs so that figures here are
 * the ones the published tables use (trec_eval conventions: linear gains, ties broken by doc id
 * descending, a judged query missing from the run scores 0, queries without a relevant doc skipped).
 * The quality benchmark also runs eval.mjs itself on the written run file and checks they agree.
 */
export type Qrels = Map<string, Map<string, number>>;
export interface RunEntry {
  did: string;
  score: number;
}
export type Run = Map<string, RunEntry[]>;

export interface QueryScores {
  ndcg10: number;
  recall100: number;
  mrr10: number;
}

export interface Summary {
  queries_evaluated: number;
  queries_missing_from_run: number;
  ndcg10: number;
  recall100: number;
  mrr10: number;
}

function ranked(list: readonly RunEntry[]): RunEntry[] {
  const seen = new Set<string>();
  const uniq = list.filter((r) => (seen.has(r.did) ? false : (seen.add(r.did), true)));
  return uniq.sort((a, b) => b.score - a.score || (a.did < b.did ? 1 : a.did > b.did ? -1 : 0));
}

export function evalQuery(judged: ReadonlyMap<string, number>, list: readonly RunEntry[] | undefined): QueryScores {
  const gains = [...judged.values()].filter((g) => g > 0);
  const docs = ranked(list ?? []);
  let dcg = 0;
  for (let i = 0; i < Math.min(10, docs.length); i++) {
    const g = judged.get(docs[i].did) ?? 0;
    if (g > 0) dcg += g / Math.log2(i + 2);
  }
  const ideal = gains.slice().sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(10, ideal.length); i++) idcg += ideal[i] / Math.log2(i + 2);
  let hits = 0;
  for (let i = 0; i < Math.min(100, docs.length); i++) if ((judged.get(docs[i].did) ?? 0) > 0) hits++;
  let rr = 0;
  for (let i = 0; i < Math.min(10, docs.length); i++) {
    if ((judged.get(docs[i].did) ?? 0) > 0) {
      rr = 1 / (i + 1);
      break;
    }
  }
  return { ndcg10: idcg > 0 ? dcg / idcg : 0, recall100: gains.length ? hits / gains.length : 0, mrr10: rr };
}

export function evaluate(qrels: Qrels, run: Run): Summary {
  const per: QueryScores[] = [];
  let missing = 0;
  for (const [qid, judged] of qrels) {
    if (![...judged.values()].some((g) => g > 0)) continue;
    if (!run.has(qid)) missing++;
    per.push(evalQuery(judged, run.get(qid)));
  }
  const n = per.length;
  const mean = (k: keyof QueryScores): number => (n ? per.reduce((s, r) => s + r[k], 0) / n : 0);
  return {
    queries_evaluated: n,
    queries_missing_from_run: missing,
    ndcg10: mean('ndcg10'),
    recall100: mean('recall100'),
    mrr10: mean('mrr10'),
  };
}

/** The run as eval.mjs reads it: `query-id<TAB>doc-id<TAB>rank<TAB>score` with a header. */
export function runToTsv(run: Run): string {
  const lines = ['query-id\tdoc-id\trank\tscore'];
  for (const [qid, list] of run) list.forEach((r, i) => lines.push(`${qid}\t${r.did}\t${i + 1}\t${r.score}`));
  return lines.join('\n') + '\n';
}

export function parseQrels(text: string): Qrels {
  const qrels: Qrels = new Map();
  for (const line of text.split(/\r?\n/)) {
    const p = line.trim().split(/\s+/);
    if (p.length < 3) continue;
    const [qid, did, rel] = p.length === 4 ? [p[0], p[2], p[3]] : [p[0], p[1], p[2]];
    if (rel === '' || Number.isNaN(Number(rel))) continue; // header line
    let m = qrels.get(qid);
    if (!m) qrels.set(qid, (m = new Map()));
    m.set(did, Number(rel));
  }
  return qrels;
}
