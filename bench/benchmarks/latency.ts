/**
 * Warm query latency per mode at 10k and 100k chunks, p50/p95 over 500 queries (issue 6 §3).
 * Targets at 100k chunks: sparse and vector p95 <= 15 ms, hybrid <= 25 ms, tribrid <= 40 ms,
 * excluding the query's embedding (measured separately and reported beside it).
 */
import { SEARCH_MODES, type SearchMode } from '../../main/common/search.js';
import { corpusQueries } from '../corpus/synthetic.js';
import { numberOption } from '../lib/args.js';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { fixtureOptions, fixtureSizes, indexedCorpus, openFixture, vectorsNote } from '../lib/indexed-fixture.js';
import { BagOfWordsVectors } from '../lib/synthetic-vectors.js';
import { preEmbedQueries } from '../lib/query-embeddings.js';
import { emptyOutput, target } from '../lib/results.js';
import { round, roundSpread, spread, type Spread } from '../lib/stats.js';

const LIMITS: Record<SearchMode, number> = { sparse: 15, vector: 15, hybrid: 25, tribrid: 40 };

export const latencyBenchmark: Benchmark = {
  name: 'latency',
  description: 'warm query latency per mode at 10k/100k chunks (p50/p95 over 500 queries)',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const sizes = fixtureSizes(ctx.quick, ctx.options);
    const count = numberOption(ctx.options, 'queries', ctx.quick ? 100 : 500);
    const queries = corpusQueries(count);
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = {};
    for (const size of sizes) {
      const fx = await indexedCorpus(ctx.root, size, ctx.log, fixtureOptions(ctx.options));
      const note = vectorsNote(fx);
      if (note) out.notes.push(note);
      const engine = await openFixture(ctx.root, fx);
      try {
        // Query vectors are computed first and served from memory, so the timings are the index's;
        // over synthetic document vectors the queries get synthetic vectors of the same kind.
        const bag = fx.vectors === 'synthetic' ? new BagOfWordsVectors((await engine.embedder()).dimensions) : null;
        const embed = await preEmbedQueries(engine, queries, bag ? (q) => bag.vector(q) : undefined);
        const warm = queries.slice(0, 20);
        for (const q of warm)
          for (const mode of SEARCH_MODES) await engine.search({ query: q, mode, top_k: 10, folders: [fx.dir] });
        const lat = new Map<SearchMode, number[]>(SEARCH_MODES.map((m) => [m, []]));
        // Modes interleaved per query so that machine noise hits every mode alike.
        for (const q of queries) {
          for (const mode of SEARCH_MODES) {
            const t0 = performance.now();
            await engine.search({ query: q, mode, top_k: 10, folders: [fx.dir] });
            lat.get(mode)?.push(performance.now() - t0);
          }
        }
        embed.restore();
        const per: Record<string, Spread> = {};
        for (const mode of SEARCH_MODES) {
          const s = spread(lat.get(mode) ?? []);
          per[mode] = roundSpread(s, 2);
          rows.push([
            `${size / 1000}k (${fx.chunks})`,
            mode,
            round(s.p50, 2),
            round(s.p95, 2),
            `${round(s.min, 2)}–${round(s.max, 2)}`,
            embed.excluded ? 'excluded' : 'included',
          ]);
          ctx.log(`   ${size / 1000}k ${mode.padEnd(8)} p50 ${s.p50.toFixed(2)} ms  p95 ${s.p95.toFixed(2)} ms`);
          if (size === 100_000)
            out.targets.push(target(`p95-${mode}-100k`, `${mode} p95 at 100k chunks`, s.p95, '<=', LIMITS[mode], 'ms'));
        }
        const e = roundSpread(spread(embed.embedMs), 2);
        figures[`${size}`] = {
          chunks: fx.chunks,
          files: fx.files,
          vectors: fx.vectors,
          queries: queries.length,
          query_embedding_excluded: embed.excluded,
          query_embedding_ms: e,
          modes: per,
        };
        rows.push([`${size / 1000}k (${fx.chunks})`, 'query embedding alone', e.p50, e.p95, `${e.min}–${e.max}`, '']);
      } finally {
        await engine.close();
      }
    }
    out.figures = figures;
    out.tables.push({
      title: `Warm search latency, top_k 10, ${queries.length} queries per mode`,
      columns: ['index', 'mode', 'p50 ms', 'p95 ms', 'min–max ms', 'query embedding'],
      rows,
    });
    for (const size of sizes) {
      const f = figures[`${size}`] as { modes: Record<string, Spread> };
      out.charts.push({
        id: `p95-${size / 1000}k`,
        title: `p95 search latency at ${size / 1000}k chunks`,
        unit: 'ms',
        bars: SEARCH_MODES.map((m) => ({ label: m, value: f.modes[m].p95 })),
      });
    }
    if (!sizes.includes(100_000))
      out.notes.push(`Run at ${sizes.join(', ')} chunks only: the targets are for 100k chunks and are not evaluated.`);
    return out;
  },
};
