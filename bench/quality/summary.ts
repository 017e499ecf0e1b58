/** Targets, tables and charts of the quality benchmark, from its measured rows. */
import type { Chart, Table, TargetResult } from '../lib/results.js';
import { target } from '../lib/results.js';
import { round } from '../lib/stats.js';
import { PUBLISHED } from './published.js';

export interface QualityRow {
  set: string;
  mode: string;
  /** Settings changed for this row (`--setting` / `--sweep`), as `k=v` text; '' for defaults. */
  variant: string;
  ndcg10: number;
  recall100: number;
  mrr10: number;
  queries: number;
  p50_ms: number;
  p95_ms: number;
}

const get = (rows: readonly QualityRow[], set: string, mode: string): number | undefined =>
  rows.find((r) => r.set === set && r.mode === mode && r.variant === '')?.ndcg10;

/** Issue 6's quality targets, over the rows with default settings on full sets. */
export function qualityTargets(rows: readonly QualityRow[]): TargetResult[] {
  const out: TargetResult[] = [];
  const sparseSci = get(rows, 'scifact', 'sparse');
  if (sparseSci !== undefined)
    out.push(target('scifact-sparse', 'SciFact sparse nDCG@10 at or above BM25 (BEIR)', sparseSci, '>=', 0.665));
  const sci = rows.filter((r) => r.set === 'scifact' && r.variant === '');
  if (sci.length) {
    const best = sci.reduce((a, b) => (b.ndcg10 > a.ndcg10 ? b : a));
    out.push(target('scifact-best', `SciFact best mode (${best.mode}) nDCG@10`, best.ndcg10, '>=', 0.68));
  }
  for (const set of [...new Set(rows.map((r) => r.set))]) {
    const sparse = get(rows, set, 'sparse');
    if (sparse === undefined) continue;
    for (const mode of ['hybrid', 'tribrid']) {
      const v = get(rows, set, mode);
      if (v === undefined) continue;
      out.push(
        target(
          `${set}-${mode}-floor`,
          `${set} ${mode} nDCG@10 not below sparse (${round(sparse, 4)}) by more than 0.005`,
          v,
          '>=',
          round(sparse - 0.005, 4),
        ),
      );
      if (['cranfield', 'medline', 'npl'].includes(set)) {
        out.push(
          target(
            `${set}-${mode}-gain`,
            `${set} ${mode} nDCG@10 above sparse (${round(sparse, 4)})`,
            v,
            '>=',
            round(sparse + 0.0001, 4),
          ),
        );
      }
    }
  }
  return out;
}

export function qualityTables(rows: readonly QualityRow[], quick: boolean): Table[] {
  return [...new Set(rows.map((r) => r.set))].map((set) => {
    const ours = rows
      .filter((r) => r.set === set)
      .map((r) => [
        `Cairn ${r.mode}${r.variant ? ` [${r.variant}]` : ''}`,
        r.ndcg10,
        r.recall100,
        r.mrr10,
        r.queries,
        r.p50_ms,
        r.p95_ms,
      ]);
    const pub = (PUBLISHED[set] ?? []).map((p) => [
      `${p.system} (published)`,
      p.ndcg10,
      p.recall100 ?? '–',
      p.mrr10 ?? '–',
      '',
      '',
      '',
    ]);
    return {
      title: `${set}${quick ? ' (quick subset)' : ''}`,
      columns: ['system', 'nDCG@10', 'Recall@100', 'MRR@10', 'queries', 'p50 ms', 'p95 ms'],
      rows: [...ours, ...pub],
      note: 'Latency here is per search call in process, including the query embedding.',
    };
  });
}

export function qualityCharts(rows: readonly QualityRow[]): Chart[] {
  return [...new Set(rows.map((r) => r.set))].map((set) => ({
    id: `ndcg-${set}`,
    title: `${set}: nDCG@10`,
    unit: '',
    bars: [
      ...rows
        .filter((r) => r.set === set)
        .map((r) => ({ label: `${r.mode}${r.variant ? ` ${r.variant}` : ''}`, value: r.ndcg10 })),
      ...(PUBLISHED[set] ?? [])
        .filter((p) => !p.system.includes('MTEB, larger'))
        .map((p) => ({ label: p.system, value: p.ndcg10, reference: true })),
    ],
  }));
}

export function printHeader(log: (l: string) => void): void {
  log(`   ${'set'.padEnd(10)} ${'mode'.padEnd(8)} ${'variant'.padEnd(36)} nDCG@10  R@100   MRR@10  p50ms   n`);
}

export function printRow(log: (l: string) => void, r: QualityRow): void {
  const f = (v: number): string => v.toFixed(4);
  log(
    `   ${r.set.padEnd(10)} ${r.mode.padEnd(8)} ${shortVariant(r.variant).padEnd(36)} ${f(r.ndcg10)}   ${f(r.recall100)}  ${f(r.mrr10)}  ${r.p50_ms.toFixed(1).padStart(6)}  ${r.queries}`,
  );
}

/** `search.fusion=convex,search.vector_weight=0.1` as `fusion=convex vector_weight=0.1`. */
export function shortVariant(v: string): string {
  return v === '' ? 'defaults' : v.replace(/(^|,)search\./g, '$1').replace(/,/g, ' ');
}
