/**
 * A mixed folder (issue 13): the code set of bench/quality/code-set.ts and a prose set (Medline by
 * default, `--prose NAME`) indexed as ONE folder, every query searched over the whole folder. It
 * measures the per-kind ceiling of fusion where it matters: the built-in model has no say on code
 * (weight 0), so a code chunk misses the dense leg's vote that a prose chunk can get. Reported per
 * mode and variant: code MRR@10 per kind, prose nDCG@10, how many of a query's top 10 are of the
 * other kind (intrusion), and fused − sparse paired over the same queries. The default variant is
 * the per-kind ceiling; `search.vector_weight_code` set to the prose weight is the same fusion
 * without a weight by kind, for comparison.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SEARCH_MODES, type SearchMode } from '../../main/common/search.js';
import { SETTINGS } from '../../main/common/settings.js';
import { listOption, numberOption, settingsPatch, sweepVariants } from '../lib/args.js';
import { SkipError, type BenchContext, type Benchmark } from '../lib/benchmark.js';
import { indexFolderAndWait, openBenchEngine } from '../lib/engine.js';
import { emptyOutput, target } from '../lib/results.js';
import { evenly, round } from '../lib/stats.js';
import { buildCodeSet, type CodeQuery } from '../quality/code-set.js';
import { loadSet, missingSetFiles } from '../quality/datasets.js';
import { docFileName, docFileText } from '../quality/docfiles.js';
import { evalQuery, type QueryScores } from '../quality/metrics.js';
import { pairedBootstrap } from '../quality/bootstrap.js';
import { subsetOf } from '../quality/subset.js';
import { hitsToEntries } from '../quality/search-run.js';

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export const qualityMixedBenchmark: Benchmark = {
  name: 'quality-mixed',
  description: 'code and prose in one folder: code MRR@10, prose nDCG@10, cross-kind intrusion, per mode',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const code = buildCodeSet(join(ctx.root, 'node_modules'));
    if (!code) throw new SkipError('none of the source packages of the code set is installed');
    const proseName = ctx.options.get('prose') ?? 'medline';
    const missing = missingSetFiles(ctx.datasets, proseName);
    if (missing) throw new SkipError(`${proseName}: ${missing}`);
    const full = loadSet(ctx.datasets, proseName);
    // Quick (CI): 10 prose queries over 200 documents, and only the code files the code queries answer in.
    const prose = ctx.quick ? subsetOf(full, 10, 200) : full;
    const modes = listOption(ctx.options, 'modes', ['sparse', 'hybrid', 'tribrid']) as SearchMode[];
    if (modes.some((m) => !SEARCH_MODES.includes(m))) throw new Error(`unknown mode in ${modes.join(',')}`);
    const cap = numberOption(ctx.options, 'queries', ctx.quick ? 4 : 80);
    const groups = new Map<string, CodeQuery[]>();
    for (const q of code.queries) groups.set(`${q.lang}|${q.kind}`, [...(groups.get(`${q.lang}|${q.kind}`) ?? []), q]);
    const codeQueries = [...groups.values()].flatMap((g) => evenly(g, cap));
    const proseQueries = prose.queries;
    const answering = new Set(codeQueries.map((q) => q.rel));
    const codeFiles = ctx.quick ? code.files.filter((f) => answering.has(f.rel)) : code.files;

    const work = ctx.options.has('reuse-index') ? join(ctx.root, `bench/.cache/quality-mixed-${proseName}`) : ctx.tmp;
    const dir = join(work, 'mixed');
    for (const f of codeFiles) {
      mkdirSync(dirname(join(dir, 'code', f.rel)), { recursive: true });
      writeFileSync(join(dir, 'code', f.rel), f.text);
    }
    mkdirSync(join(dir, 'prose'), { recursive: true });
    for (const d of prose.docs) writeFileSync(join(dir, 'prose', docFileName(d.id, 'md')), docFileText(d, 'md'));
    const proseDir = join(dir, 'prose');

    const searchDefaults = Object.fromEntries(
      SETTINGS.filter((x) => x.key.startsWith('search.')).map((x) => [x.key, x.default]),
    );
    const fixed = settingsPatch(ctx.options.get('setting'));
    const variants = sweepVariants(ctx.options.get('sweep'));
    const engine = await openBenchEngine(ctx.root, join(work, 'home'));
    const rows: (string | number)[][] = [];
    /** tag → query id → scores (code: mrr10 in mrr10; prose: ndcg10), for the paired differences. */
    const perQuery = new Map<string, Map<string, QueryScores>>();
    const cellOf = new Map<string, { tag: string; group: string }>();
    let chunks = 0;
    try {
      const counts = await indexFolderAndWait(engine, dir, {
        vectors: modes.some((m) => m !== 'sparse'),
        onProgress: ctx.log,
      });
      await engine.runMaintenance();
      chunks = counts.chunks;
      ctx.log(
        `   ${codeFiles.length} code files + ${prose.docs.length} ${proseName} docs → ${counts.chunks} chunks; ${codeQueries.length} code and ${proseQueries.length} prose queries`,
      );
      for (const variant of variants) {
        engine.settings.set({ ...searchDefaults, ...fixed, ...variant });
        const vlabel = Object.entries(variant)
          .map(([k, x]) => `${k}=${String(x)}`)
          .join(',');
        for (const mode of modes.filter((m) => m !== 'sparse' || variant === variants[0])) {
          const tag = vlabel && mode !== 'sparse' ? `${mode}[${vlabel}]` : mode;
          const scores = new Map<string, QueryScores>();
          const byGroup = new Map<string, { rr: number[]; intrusion: number[] }>();
          const note = (group: string, rr: number, intrusion: number) => {
            const g = byGroup.get(group) ?? { rr: [], intrusion: [] };
            g.rr.push(rr);
            g.intrusion.push(intrusion);
            byGroup.set(group, g);
          };
          for (const q of codeQueries) {
            const res = await engine.search({ query: q.text, mode, top_k: 10, folders: [dir] });
            const want = join(dir, 'code', q.rel);
            const rank =
              res.hits.findIndex((h) => h.path === want && h.start_line <= q.endLine && h.end_line >= q.startLine) + 1;
            const intrusion = res.hits.filter((h) => h.path.startsWith(proseDir)).length / 10;
            const rr = rank > 0 ? 1 / rank : 0;
            scores.set(`code:${q.id}`, { ndcg10: 0, recall100: rank > 0 ? 1 : 0, mrr10: rr });
            cellOf.set(`code:${q.id}`, { tag, group: `code ${q.kind}` });
            note(`code ${q.lang} ${q.kind}`, rr, intrusion);
            note(`code all ${q.kind}`, rr, intrusion);
          }
          for (const q of proseQueries) {
            const judged = prose.qrels.get(q.id);
            if (!judged || ![...judged.values()].some((g) => g > 0)) continue;
            const res = await engine.search({ query: q.text, mode, top_k: 10, folders: [dir], per_file: true });
            const s = evalQuery(
              judged,
              hitsToEntries(res.hits.filter((h) => h.path.startsWith(proseDir))).concat(
                // A code file in the top 10 is a wrong answer at its rank, not a skipped one.
                res.hits
                  .filter((h) => !h.path.startsWith(proseDir))
                  .map((h) => ({ did: `code:${h.path}`, score: h.score })),
              ),
            );
            const intrusion = res.hits.filter((h) => !h.path.startsWith(proseDir)).length / 10;
            // The paired difference for prose is on nDCG@10, carried in the mrr10 slot of the map.
            scores.set(`prose:${q.id}`, { ndcg10: s.ndcg10, recall100: 0, mrr10: s.ndcg10 });
            note(`prose ${proseName} nDCG@10`, s.ndcg10, intrusion);
          }
          perQuery.set(tag, scores);
          for (const [group, g] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) {
            rows.push([tag, group, g.rr.length, round(mean(g.rr), 4), round(mean(g.intrusion), 4)]);
            ctx.log(
              `   ${tag.padEnd(12)} ${group.padEnd(28)} ${mean(g.rr).toFixed(4)}  other kind in top 10: ${mean(g.intrusion).toFixed(3)}`,
            );
          }
        }
      }
    } finally {
      await engine.close();
    }
    out.tables.push({
      title: `Mixed folder (code set + ${proseName}): code MRR@10 or prose nDCG@10, and the share of the top 10 of the other kind`,
      columns: ['mode', 'queries', 'n', 'MRR@10 / nDCG@10', 'other kind in top 10'],
      rows,
    });
    const sparse = perQuery.get('sparse');
    const ciRows: (string | number)[][] = [];
    if (sparse) {
      for (const [tag, scores] of perQuery) {
        if (tag === 'sparse') continue;
        for (const group of ['code docstring', 'code identifier', 'code split', 'prose']) {
          const only = (m: Map<string, QueryScores>) =>
            new Map(
              [...m].filter(([id]) => (group === 'prose' ? id.startsWith('prose:') : cellOf.get(id)?.group === group)),
            );
          const ci = pairedBootstrap(only(scores), only(sparse), 'mrr10');
          ciRows.push([`${tag} − sparse`, group, round(ci.mean, 4), round(ci.low, 4), round(ci.high, 4), ci.queries]);
          ctx.log(`   ${tag} − sparse ${group}: ${ci.mean.toFixed(4)} [${ci.low.toFixed(4)}, ${ci.high.toFixed(4)}]`);
          if (!tag.includes('['))
            out.targets.push(
              target(
                `mixed-${tag}-${group.replace(' ', '-')}-floor`,
                `mixed folder, ${group}: ${tag} not below sparse (mean paired difference)`,
                round(ci.mean, 4),
                '>=',
                0,
              ),
            );
        }
      }
    }
    out.tables.push({
      title: 'Mixed folder: fused − sparse (paired bootstrap over queries, 95% interval; code MRR@10, prose nDCG@10)',
      columns: ['comparison', 'queries', 'mean', 'low', 'high', 'n'],
      rows: ciRows,
    });
    out.figures = {
      prose_set: proseName,
      code_files: codeFiles.length,
      prose_docs: prose.docs.length,
      chunks,
      code_queries: codeQueries.length,
      prose_queries: proseQueries.length,
      rows,
      paired: ciRows,
    };
    out.notes.push(
      'One folder holds both kinds; every query searches all of it. A code query is right when a hit overlaps its function; prose is scored per file (per_file) with a code file in the top 10 counted as a wrong answer at its rank.',
    );
    return out;
  },
};
