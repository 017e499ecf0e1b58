/**
 * Retrieval quality per mode on the shared test sets (issue 6 §1, issue 2 §10). Each set is written
 * as one file per document into a folder, indexed by the real engine (vectors included), and every
 * query is searched in each mode; the hits become a run scored with eval.mjs's conventions.
 * Settings can be overridden or swept without re-indexing, so fusion weights are tuned by measurement.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEARCH_MODES, TOP_K_MAX, type SearchMode } from '../../main/common/search.js';
import { SETTINGS } from '../../main/common/settings.js';
import type { EngineApi } from '../../main/engine/api.js';
import { listOption, numberOption, settingsPatch, sweepVariants } from '../lib/args.js';
import { PartialFailure, SkipError, type BenchContext, type Benchmark } from '../lib/benchmark.js';
import { indexFolderAndWait, openBenchEngine } from '../lib/engine.js';
import { listModels } from '../../main/engine/embed/registry.js';
import { defaultDataDir } from '../../main/engine/config/paths.js';
import { emptyOutput } from '../lib/results.js';
import { round, spread } from '../lib/stats.js';
import { QUALITY_SETS, loadSet, missingSetFiles, type TestSet } from '../quality/datasets.js';
import { docFileName, docFileText } from '../quality/docfiles.js';
import { checkWithEvalMjs } from '../quality/eval-check.js';
import { evaluate } from '../quality/metrics.js';
import { runMode } from '../quality/search-run.js';
import { subsetOf } from '../quality/subset.js';
import { pairedBootstrap, perQuery, type PairedCi } from '../quality/bootstrap.js';
import { referenceRun } from '../quality/reference.js';
import type { QueryScores } from '../quality/metrics.js';
import {
  printHeader,
  printRow,
  qualityCharts,
  qualityTables,
  qualityTargets,
  type QualityRow,
} from '../quality/summary.js';

/** Code search sets are written as source files, so the engine's code chunker handles them. */
const EXT: Record<string, string> = { cosqa: 'py' };

function writeDocs(set: TestSet, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const ext = EXT[set.name] ?? 'md';
  for (const d of set.docs) writeFileSync(join(dir, docFileName(d.id, ext)), docFileText(d, ext));
}

/** Asks for more than the engine's cap if allowed (Recall@100), else the cap, and says which. */
async function usableTopK(engine: EngineApi, folder: string, wanted: number, notes: string[]): Promise<number> {
  try {
    await engine.search({ query: 'probe', mode: 'sparse', top_k: wanted, folders: [folder] });
    return wanted;
  } catch {
    notes.push(
      `The engine refuses top_k ${wanted}; runs use top_k ${TOP_K_MAX} chunks, so Recall@100 is measured over at most ${TOP_K_MAX} documents (a lower bound).`,
    );
    return TOP_K_MAX;
  }
}

function bootstrapTable(cis: { set: string; comparison: string; ci: PairedCi }[]) {
  return {
    title: 'Paired differences (bootstrap over queries, 95% interval)',
    columns: ['set', 'comparison', 'metric', 'mean', 'low', 'high', 'P(≤0)', 'queries'],
    rows: cis.map(({ set, comparison, ci }) => [
      set,
      comparison,
      ci.metric,
      round(ci.mean, 4),
      round(ci.low, 4),
      round(ci.high, 4),
      round(ci.p_not_better, 3),
      ci.queries,
    ]),
  };
}

const variantLabel = (v: Record<string, unknown>): string =>
  Object.entries(v)
    .map(([k, x]) => `${k}=${String(x)}`)
    .join(',');
const model_ = (ctx: BenchContext): string => ctx.options.get('model') ?? 'default (embedding.model)';

export const qualityBenchmark: Benchmark = {
  name: 'quality',
  description: 'nDCG@10, Recall@100, MRR@10 per mode on the shared test sets',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const sets = listOption(ctx.options, 'sets', ctx.quick ? ['scifact', 'cranfield'] : QUALITY_SETS);
    const modes = listOption(ctx.options, 'modes', SEARCH_MODES) as SearchMode[];
    const bad = [
      ...sets.filter((s) => !(QUALITY_SETS as readonly string[]).includes(s)),
      ...modes.filter((m) => !SEARCH_MODES.includes(m)),
    ];
    if (bad.length) throw new Error(`unknown set or mode: ${bad.join(', ')}`);
    // Every variant starts from the defaults of every search.* key: a reused home must not carry
    // the last sweep's settings into a row labelled "defaults".
    const searchDefaults = Object.fromEntries(
      SETTINGS.filter((x) => x.key.startsWith('search.')).map((x) => [x.key, x.default]),
    );
    const base = { ...searchDefaults, ...settingsPatch(ctx.options.get('setting')) };
    const variants = sweepVariants(ctx.options.get('sweep')).map((v) => ({
      patch: { ...base, ...v },
      label: variantLabel({ ...settingsPatch(ctx.options.get('setting')), ...v }),
    }));
    const wantedK = numberOption(ctx.options, 'top-k', 100);
    const maxQueries = numberOption(ctx.options, 'queries', ctx.quick ? 25 : Infinity);
    const rows: QualityRow[] = [];
    const indexFigures: Record<string, unknown> = {};
    const skipped: string[] = [];
    const errors: string[] = [];
    const cis: { set: string; comparison: string; ci: PairedCi }[] = [];
    printHeader(ctx.log);
    for (const name of sets) {
      const missing = missingSetFiles(ctx.datasets, name);
      if (missing) {
        skipped.push(`${name}: ${missing}`);
        ctx.log(`   ${name}: skipped (${missing})`);
        continue;
      }
      const full = loadSet(ctx.datasets, name);
      const set = ctx.quick
        ? subsetOf(full, maxQueries, numberOption(ctx.options, 'docs', 400))
        : { ...full, queries: full.queries.slice(0, maxQueries) };
      if (!ctx.quick && maxQueries < full.queries.length)
        set.qrels = new Map(set.queries.map((q) => [q.id, full.qrels.get(q.id) ?? new Map()]));
      // --reuse-index keeps the indexed set under bench/.cache so repeated tuning runs skip embedding.
      const work = ctx.options.has('reuse-index')
        ? join(ctx.root, 'bench/.cache/quality', `${name}-${ctx.quick ? 'quick' : 'full'}`)
        : join(ctx.tmp, name);
      const docsDir = join(work, 'docs');
      const fresh = !existsSync(docsDir);
      if (fresh) writeDocs(set, docsDir);
      // --model measures another embedding model (a registry id present locally, or a model folder).
      const model = ctx.options.get('model');
      const engine = await openBenchEngine(ctx.root, join(work, 'home'), model ? { 'embedding.model': model } : {});
      try {
        const t0 = performance.now();
        const needVectors = modes.some((m) => m !== 'sparse');
        const counts = await indexFolderAndWait(engine, docsDir, { vectors: needVectors, onProgress: ctx.log });
        // The indexes a running engine has by now (the vector index above its threshold), not
        // whatever the background maintenance finished before the first query.
        await engine.runMaintenance();
        const indexS = (performance.now() - t0) / 1000;
        indexFigures[name] = {
          docs: set.docs.length,
          queries: set.queries.length,
          files: counts.files,
          chunks: counts.chunks,
          embedded: counts.embedded,
          index_s: round(indexS, 1),
          reused: !fresh,
        };
        ctx.log(
          `   ${name}: ${set.docs.length} docs → ${counts.chunks} chunks (${counts.embedded} embedded) in ${indexS.toFixed(1)} s${fresh ? '' : ' (reused folder)'}`,
        );
        const topK = await usableTopK(engine, docsDir, wantedK, out.notes);
        // The reference BM25 on the same documents and queries, beside every mode.
        const perMode = new Map<string, Map<string, QueryScores>>();
        const ref = referenceRun(ctx.datasets, ctx.tmp, set);
        if (ref) {
          const s = evaluate(set.qrels, ref);
          const row: QualityRow = {
            set: name,
            mode: 'bm25-ref',
            variant: '',
            ndcg10: round(s.ndcg10, 4),
            recall100: round(s.recall100, 4),
            mrr10: round(s.mrr10, 4),
            queries: s.queries_evaluated,
            p50_ms: 0,
            p95_ms: 0,
          };
          rows.push(row);
          printRow(ctx.log, row);
          perMode.set('bm25-ref', perQuery(set.qrels, ref));
        } else
          out.notes.push(
            `${name}: the reference BM25 (../shared/tools/bm25-reference.mjs) is not there; no reference row.`,
          );
        for (const { patch, label } of variants) {
          engine.settings.set(patch);
          for (const mode of modes) {
            try {
              const r = await runMode(engine, set.queries, docsDir, mode, topK);
              const s = evaluate(set.qrels, r.run);
              checkWithEvalMjs(ctx.datasets, ctx.tmp, `${name}-${mode}`, set.qrels, r.run, s);
              const lat = spread(r.latencies);
              const row: QualityRow = {
                set: name,
                mode,
                variant: label,
                ndcg10: round(s.ndcg10, 4),
                recall100: round(s.recall100, 4),
                mrr10: round(s.mrr10, 4),
                queries: s.queries_evaluated,
                p50_ms: round(lat.p50, 1),
                p95_ms: round(lat.p95, 1),
              };
              rows.push(row);
              printRow(ctx.log, row);
              if (label === variants[0].label) perMode.set(mode, perQuery(set.qrels, r.run));
              if (r.unordered)
                out.notes.push(`${name} ${mode}: ${r.unordered} queries returned hits out of score order.`);
            } catch (err) {
              const msg = `${name} ${mode}${label ? ` [${label}]` : ''}: ${err instanceof Error ? err.message : String(err)}`;
              errors.push(msg);
              ctx.log(`   ERROR ${msg}`);
            }
          }
        }
        for (const [a, b] of [
          ['sparse', 'bm25-ref'],
          ['hybrid', 'sparse'],
          ['tribrid', 'sparse'],
        ] as const) {
          const pa = perMode.get(a);
          const pb = perMode.get(b);
          if (!pa || !pb) continue;
          for (const metric of ['ndcg10', 'recall100', 'mrr10'] as const) {
            const ci = pairedBootstrap(pa, pb, metric);
            cis.push({ set: name, comparison: `${a} − ${b}`, ci });
            if (metric === 'ndcg10')
              ctx.log(
                `   ${name}: ${a} − ${b} nDCG@10 ${ci.mean.toFixed(4)} [${ci.low.toFixed(4)}, ${ci.high.toFixed(4)}]`,
              );
          }
        }
      } finally {
        await engine.close();
      }
    }
    if (rows.length === 0 && errors.length === 0) throw new SkipError(`no test set available (${skipped.join('; ')})`);
    const local = listModels(defaultDataDir())
      .filter((m) => !m.builtin && m.available)
      .map((m) => m.id);
    out.notes.push(
      local.length
        ? `Recommended models present locally in ${defaultDataDir()}: ${local.join(', ')} (measure with --model <id or folder>).`
        : 'None of the recommended downloadable models is present locally (no hub access here); their published figures are shown beside ours.',
    );
    out.figures = {
      top_k: wantedK,
      per_file: true,
      model: model_(ctx),
      sets: indexFigures,
      runs: rows,
      paired_bootstrap: cis,
      skipped_sets: skipped,
    };
    out.tables = [...qualityTables(rows, ctx.quick), bootstrapTable(cis)];
    out.notes.push(
      'Every mode searches with per_file: true, so Recall@100 counts 100 documents (as the reference BM25 does). bm25-ref is ../shared/tools/bm25-reference.mjs (k1 0.9, b 0.4) over the same documents and queries. Intervals: paired bootstrap over queries, 2000 resamples, 95%.',
    );
    out.charts = qualityCharts(rows);
    // Targets hold for full sets only: a quick subset has fewer distractors and reads high.
    if (!ctx.quick && !Number.isFinite(maxQueries)) out.targets = qualityTargets(rows);
    else
      out.notes.push(
        'Quick or query-limited run: figures are on a subset and are not held against the published targets.',
      );
    if (skipped.length) out.notes.push(`Sets skipped: ${skipped.join('; ')}.`);
    if (errors.length) throw new PartialFailure(`${errors.length} mode run(s) failed: ${errors.join(' | ')}`, out);
    return out;
  },
};
