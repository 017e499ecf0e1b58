/**
 * Freshness (issue 6 §5): a file written while the engine runs with its watcher, until sparse search
 * finds it (p95 target 1.5 s) and until vector search finds it (p95 target 3 s). Runs the engine in
 * process with the same watcher and job queue `cairn serve` hosts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineApi } from '../../main/engine/api.js';
import type { SearchMode } from '../../main/common/search.js';
import { corpusFolder } from '../lib/corpus-fixture.js';
import { numberOption } from '../lib/args.js';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { indexFolderAndWait, openBenchEngine } from '../lib/engine.js';
import { createRng } from '../lib/prng.js';
import { emptyOutput, target } from '../lib/results.js';
import { round, roundSpread, spread } from '../lib/stats.js';

const POLL_MS = 25;
const TIMEOUT_MS = 30_000;

/** A made-up word no corpus contains, so exactly one file can match it. */
function token(rng: ReturnType<typeof createRng>): string {
  const letters = 'bcdfghjklmnpqrstvwxz';
  return Array.from({ length: 10 }, () => letters[rng.int(0, letters.length - 1)]).join('');
}

async function waitFound(
  engine: EngineApi,
  folder: string,
  path: string,
  query: string,
  mode: SearchMode,
  t0: number,
): Promise<number> {
  for (;;) {
    const res = await engine.search({ query, mode, top_k: 10, folders: [folder] });
    if (res.hits.some((h) => h.path === path)) return performance.now() - t0;
    if (performance.now() - t0 > TIMEOUT_MS) return Number.POSITIVE_INFINITY;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export const freshnessBenchmark: Benchmark = {
  name: 'freshness',
  description: 'time from writing a file to sparse and to vector search finding it',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const repeats = numberOption(ctx.options, 'repeats', ctx.quick ? 5 : 20);
    const corpus = corpusFolder(numberOption(ctx.options, 'chunks', ctx.quick ? 300 : 2_000));
    const engine = await openBenchEngine(ctx.root, join(ctx.tmp, 'home'), { 'watch.enabled': true });
    try {
      await indexFolderAndWait(engine, corpus.dir, { vectors: true, onProgress: ctx.log });
      // Serving mode, as `cairn serve` runs it: the watcher and its reconcile.
      const live = (engine as unknown as { startLiveUpdates?: () => Promise<void> }).startLiveUpdates;
      if (typeof live !== 'function')
        throw new Error('the engine has no startLiveUpdates(): cannot watch folders in process');
      await live.call(engine);
      await engine.idle();
      const rng = createRng(5);
      const sparse: number[] = [];
      const vector: number[] = [];
      for (let i = 0; i < repeats; i++) {
        const word = token(rng);
        const text = `Release note ${word}: the ${word} exporter now flushes its buffered metrics before shutdown, so no sample is lost on restart.`;
        const path = join(corpus.dir, `fresh-${i}-${word}.md`);
        const t0 = performance.now();
        writeFileSync(path, `# ${word}\n\n${text}\n`);
        sparse.push(await waitFound(engine, corpus.dir, path, word, 'sparse', t0));
        vector.push(await waitFound(engine, corpus.dir, path, text, 'vector', t0));
        ctx.log(`   file ${i + 1}: sparse ${sparse[i].toFixed(0)} ms, vector ${vector[i].toFixed(0)} ms`);
        // Let the watcher settle so one write's work does not overlap the next measurement.
        await engine.idle();
      }
      const s = spread(sparse);
      const v = spread(vector);
      out.figures = {
        repeats,
        corpus_files: corpus.summary.files,
        poll_ms: POLL_MS,
        sparse_ms: roundSpread(s, 1),
        vector_ms: roundSpread(v, 1),
        timeouts: [...sparse, ...vector].filter((x) => !Number.isFinite(x)).length,
      };
      out.targets.push(target('sparse-p95', 'write → found by sparse search, p95', s.p95 / 1000, '<=', 1.5, 's'));
      out.targets.push(target('vector-p95', 'write → found by vector search, p95', v.p95 / 1000, '<=', 3, 's'));
      out.tables.push({
        title: `Freshness over ${repeats} new files (watcher on, default debounce; polled every ${POLL_MS} ms)`,
        columns: ['found by', 'median ms', 'p95 ms', 'min–max ms'],
        rows: [
          ['sparse', round(s.median, 0), round(s.p95, 0), `${round(s.min, 0)}–${round(s.max, 0)}`],
          ['vector', round(v.median, 0), round(v.p95, 0), `${round(v.min, 0)}–${round(v.max, 0)}`],
        ],
      });
      out.charts.push({
        id: 'p95',
        title: 'Write to searchable, p95',
        unit: 'ms',
        bars: [
          { label: 'sparse', value: s.p95 },
          { label: 'vector', value: v.p95 },
          { label: 'sparse target', value: 1500, reference: true },
          { label: 'vector target', value: 3000, reference: true },
        ],
      });
      return out;
    } finally {
      await engine.close();
    }
  },
};
