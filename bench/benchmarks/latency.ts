/**
 * Warm query latency per mode at 10k and 100k chunks, p50/p95 over 500 queries (issue 6 §3), and
 * how it grows: a scaling point at 1M chunks (synthetic text and synthetic vectors: embedding a
 * million chunks with the model takes hours here) and the log-log slope between sizes (issue 17:
 * nothing may grow faster than the index, slope <= 1). Resident memory is recorded at each size.
 * Targets at 100k chunks: sparse and vector p95 <= 15 ms, hybrid <= 25 ms, tribrid <= 40 ms,
 * excluding the query's embedding (measured separately and reported beside it).
 */
import { SEARCH_MODES, type SearchMode } from '../../main/common/search.js';
import { corpusQueries } from '../corpus/synthetic.js';
import { numberOption } from '../lib/args.js';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import {
  fixtureOptions,
  fixtureSizes,
  indexedCorpus,
  openFixture,
  vectorsNote,
  type FixtureOptions,
} from '../lib/indexed-fixture.js';
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
    // The scaling point always has synthetic vectors (said in the notes); `--scale-chunks 0` leaves it out.
    const scale = numberOption(
      ctx.options,
      'scale-chunks',
      ctx.quick || ctx.options.has('fixture-chunks') ? 0 : 1_000_000,
    );
    const points: { size: number; vectors: FixtureOptions['vectors'] }[] = sizes.map((size) => ({
      size,
      vectors: fixtureOptions(ctx.options).vectors,
    }));
    if (scale > 0 && !sizes.includes(scale)) points.push({ size: scale, vectors: 'synthetic' });
    const count = numberOption(ctx.options, 'queries', ctx.quick ? 100 : 500);
    const queries = corpusQueries(count);
    const rows: (string | number)[][] = [];
    const figures: Record<string, unknown> = {};
    for (const { size, vectors } of points) {
      const fx = await indexedCorpus(ctx.root, size, ctx.log, { ...fixtureOptions(ctx.options), vectors });
      const note = vectorsNote(fx);
      if (note) out.notes.push(note);
      const engine = await openFixture(ctx.root, fx);
      try {
        // Warm means the sparse leg's in-memory BM25 is built (it is read in the background at open).
        const t0 = performance.now();
        await engine.store.reads.memory.settled();
        const mirrorS = (performance.now() - t0) / 1000;
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
        // After the queries: the engine holding this index warm (the bench process, one engine open).
        const rssMb = round(process.memoryUsage().rss / 2 ** 20, 0);
        // The sparse leg's in-memory BM25 (index/sparse-memory.ts): its typed arrays, and the
        // distinct tokens its dictionary holds beside them.
        const mirror = engine.store.reads.memory.stats();
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
          rss_mb: rssMb,
          sparse_mirror: mirror && {
            chunks: mirror.chunks,
            files: mirror.files,
            tokens: mirror.tokens,
            typed_arrays_mb: round(mirror.postingBytes / 2 ** 20, 1),
            ready_after_open_s: round(mirrorS, 1),
          },
          modes: per,
        };
        rows.push([`${size / 1000}k (${fx.chunks})`, 'query embedding alone', e.p50, e.p95, `${e.min}–${e.max}`, '']);
        ctx.log(`   ${size / 1000}k resident ${rssMb} MB after the queries`);
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
    growth(
      out,
      figures,
      points.map((p) => p.size),
    );
    for (const { size } of points) {
      const f = figures[`${size}`] as { modes: Record<string, Spread> };
      out.charts.push({
        id: `p95-${size / 1000}k`,
        title: `p95 search latency at ${size / 1000}k chunks`,
        unit: 'ms',
        bars: SEARCH_MODES.map((m) => ({ label: m, value: f.modes[m].p95 })),
      });
    }
    if (points.some((p) => p.vectors === 'synthetic' && p.size === scale))
      out.notes.push(
        `The ${scale / 1000}k-chunk scaling point is synthetic text (bench/corpus/synthetic.ts, as every size here) with synthetic document and query vectors (bag-of-words directions at the model's dimension): its timings depend on counts and dimension, not on what the vectors mean.`,
      );
    if (!sizes.includes(100_000))
      out.notes.push(`Run at ${sizes.join(', ')} chunks only: the targets are for 100k chunks and are not evaluated.`);
    return out;
  },
};

interface SizeFigures {
  chunks: number;
  rss_mb: number;
  modes: Record<string, Spread>;
}

/**
 * How cost grows between consecutive sizes: the log-log slope of p50 (and of resident memory)
 * against the chunk count. 1 is linear in the index; below 1 grows slower than the index.
 */
function growth(out: ReturnType<typeof emptyOutput>, figures: Record<string, unknown>, sizes: number[]): void {
  const sorted = [...sizes].sort((a, b) => a - b);
  if (sorted.length < 2) return;
  const rows: (string | number)[][] = [];
  const slopes: Record<string, Record<string, number>> = {};
  const slope = (a: number, b: number, ca: number, cb: number) => round(Math.log(b / a) / Math.log(cb / ca), 3);
  for (let i = 1; i < sorted.length; i++) {
    const a = figures[`${sorted[i - 1]}`] as SizeFigures;
    const b = figures[`${sorted[i]}`] as SizeFigures;
    const span = `${sorted[i - 1] / 1000}k → ${sorted[i] / 1000}k`;
    const per: Record<string, number> = {};
    for (const mode of SEARCH_MODES) per[mode] = slope(a.modes[mode].p50, b.modes[mode].p50, a.chunks, b.chunks);
    per.rss = slope(a.rss_mb, b.rss_mb, a.chunks, b.chunks);
    slopes[span] = per;
    rows.push([span, ...SEARCH_MODES.map((m) => per[m]), per.rss]);
  }
  out.figures = { ...out.figures, slopes };
  const first = figures[`${sorted[0]}`] as SizeFigures;
  const last = figures[`${sorted[sorted.length - 1]}`] as SizeFigures;
  for (const mode of SEARCH_MODES)
    out.targets.push(
      target(
        `slope-${mode}`,
        `${mode} p50 growth ${sorted[0] / 1000}k → ${sorted[sorted.length - 1] / 1000}k chunks (log-log slope; 1 is linear in the index)`,
        slope(first.modes[mode].p50, last.modes[mode].p50, first.chunks, last.chunks),
        '<=',
        1,
      ),
    );
  out.tables.push({
    title: 'How cost grows: log-log slope of p50 latency and resident memory against chunks (1 = linear)',
    columns: ['sizes', ...SEARCH_MODES.map((m) => `${m} p50`), 'resident memory'],
    rows,
  });
}
