/**
 * Soak (issue 16 §11): the engine serving in process with its watcher (as `cairn serve` runs it)
 * under continuous edits and searches, its own maintenance passes in between. Samples the process's
 * open descriptors, those on the index, the index files deleted but still held open with the disk
 * space they keep, and RSS. Flat means: descriptors and deleted-but-open files do not grow with the
 * minutes (least-squares slope over the run after a warm-up), and nothing deleted is held at the end.
 * V8 frees a replaced LanceDB session when it collects its last object; nothing here forces a
 * collection, so what is measured is what a serving engine holds.
 */
import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { corpusFolder } from '../lib/corpus-fixture.js';
import { numberOption } from '../lib/args.js';
import { SkipError, type BenchContext, type Benchmark } from '../lib/benchmark.js';
import { openIndexFiles } from '../lib/descriptors.js';
import { indexFolderAndWait, openBenchEngine } from '../lib/engine.js';
import { createRng } from '../lib/prng.js';
import { emptyOutput, target } from '../lib/results.js';
import { round } from '../lib/stats.js';

interface Sample {
  t_s: number;
  descriptors: number;
  index_descriptors: number;
  deleted_open: number;
  deleted_open_bytes: number;
  /** The deleted-but-open files by table and part (`chunks.lance/_indices`): which writes leave them held. */
  deleted_open_where: Record<string, number>;
  rss_mb: number;
}

/** Least-squares slope of y over x (per unit of x). */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function byPlace(indexDir: string, paths: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of paths) {
    const place = p
      .slice(indexDir.length + 1)
      .split('/')
      .slice(0, 2)
      .join('/');
    out[place] = (out[place] ?? 0) + 1;
  }
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.md'))
    .map((d) => join(d.parentPath, d.name));
}

export const soakBenchmark: Benchmark = {
  name: 'soak',
  description: 'open descriptors and deleted-but-open index files under continuous edits and searches',
  async run(ctx: BenchContext) {
    if (process.platform !== 'linux') throw new SkipError('reads /proc/self/fd (Linux only)');
    const out = emptyOutput();
    const durationS = numberOption(ctx.options, 'duration', ctx.quick ? 60 : 600);
    const editEveryMs = numberOption(ctx.options, 'edit-ms', 500);
    const vectors = numberOption(ctx.options, 'text-only', 0) !== 1;
    const corpus = corpusFolder(numberOption(ctx.options, 'chunks', ctx.quick ? 300 : 2_000));
    const home = join(ctx.tmp, 'home');
    const engine = await openBenchEngine(ctx.root, home, { 'watch.enabled': true });
    const samples: Sample[] = [];
    let edits = 0;
    let searches = 0;
    let searchErrors = 0;
    try {
      if (!vectors) {
        await engine.addFolder({ path: corpus.dir, text_only: true });
      }
      await indexFolderAndWait(engine, corpus.dir, { vectors, onProgress: ctx.log });
      await engine.startLiveUpdates();
      await engine.idle();
      const files = filesUnder(corpus.dir);
      const rng = createRng(16);
      const indexDir = join(home, 'index');
      const t0 = performance.now();
      const sample = () => {
        const open = openIndexFiles(indexDir);
        samples.push({
          t_s: (performance.now() - t0) / 1000,
          descriptors: open.total,
          index_descriptors: open.all.length,
          deleted_open: open.deleted.length,
          deleted_open_bytes: open.deletedBytes,
          deleted_open_where: byPlace(indexDir, open.deleted),
          rss_mb: Math.round(process.memoryUsage().rss / 1e6),
        });
      };
      sample();
      let nextEdit = 0;
      let nextSample = 5_000;
      while (performance.now() - t0 < durationS * 1000) {
        const now = performance.now() - t0;
        if (now >= nextEdit) {
          const f = files[rng.int(0, files.length - 1)];
          appendFileSync(f, `\nSoak edit ${edits}: the exporter flushes buffered metrics before shutdown.\n`);
          edits++;
          nextEdit = now + editEveryMs;
        }
        try {
          await engine.search({ query: 'exporter flushes metrics', mode: vectors ? 'hybrid' : 'sparse', top_k: 10 });
        } catch {
          searchErrors++;
        }
        searches++;
        if (now >= nextSample) {
          sample();
          const s = samples[samples.length - 1];
          if (samples.length % 6 === 0)
            ctx.log(
              `   ${round(s.t_s, 0)} s: ${s.descriptors} descriptors, ${s.index_descriptors} on the index, ${s.deleted_open} deleted but open (${round(s.deleted_open_bytes / 1e6, 2)} MB) ${JSON.stringify(s.deleted_open_where)}, RSS ${s.rss_mb} MB`,
            );
          nextSample = now + 5_000;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      await engine.idle();
      await engine.runMaintenance();
      sample();
    } finally {
      await engine.close();
    }
    // The first minute (or fifth) is warm-up: caches, the vector index, the first passes.
    const warm = Math.min(60, durationS / 5);
    const steady = samples.filter((s) => s.t_s >= warm);
    const minutes = steady.map((s) => s.t_s / 60);
    const first = samples[0];
    const last = samples[samples.length - 1];
    const fdSlope = slope(
      minutes,
      steady.map((s) => s.descriptors),
    );
    const deletedSlope = slope(
      minutes,
      steady.map((s) => s.deleted_open),
    );
    const bytesSlope = slope(
      minutes,
      steady.map((s) => s.deleted_open_bytes / 1e6),
    );
    const max = (k: Exclude<keyof Sample, 'deleted_open_where'>) => Math.max(...samples.map((s) => s[k]));
    out.figures = {
      duration_s: durationS,
      vectors,
      corpus_files: corpus.summary.files,
      edits,
      searches,
      search_errors: searchErrors,
      descriptors: { start: first.descriptors, end: last.descriptors, max: max('descriptors') },
      index_descriptors: { start: first.index_descriptors, end: last.index_descriptors, max: max('index_descriptors') },
      deleted_open: { start: first.deleted_open, end: last.deleted_open, max: max('deleted_open') },
      deleted_open_mb: {
        start: round(first.deleted_open_bytes / 1e6, 3),
        end: round(last.deleted_open_bytes / 1e6, 3),
        max: round(max('deleted_open_bytes') / 1e6, 3),
      },
      deleted_open_where_at_end: last.deleted_open_where,
      rss_mb: { start: first.rss_mb, end: last.rss_mb, max: max('rss_mb') },
      slope_per_minute: {
        descriptors: round(fdSlope, 2),
        deleted_open: round(deletedSlope, 2),
        deleted_open_mb: round(bytesSlope, 3),
      },
      samples,
    };
    // Before the fix: +31 descriptors a minute, 289 deleted files held after 10 minutes (issue 16).
    out.targets.push(target('fd-slope', 'open descriptors, growth per minute', fdSlope, '<=', 1, '/min'));
    out.targets.push(
      target('deleted-open-slope', 'deleted-but-open index files, growth per minute', deletedSlope, '<=', 0.5, '/min'),
    );
    out.targets.push(target('search-errors', 'searches that failed during the soak', searchErrors, '<=', 0));
    out.tables.push({
      title: `Soak: ${round(durationS / 60, 1)} min serving, ${edits} edits (one per ${editEveryMs} ms), ${searches} ${vectors ? 'hybrid' : 'sparse'} searches`,
      columns: ['measure', 'start', 'end', 'max', 'slope / min after warm-up'],
      rows: [
        ['open descriptors', first.descriptors, last.descriptors, max('descriptors'), round(fdSlope, 2)],
        ['on the index', first.index_descriptors, last.index_descriptors, max('index_descriptors'), ''],
        ['deleted but open', first.deleted_open, last.deleted_open, max('deleted_open'), round(deletedSlope, 2)],
        [
          'deleted but open, MB',
          round(first.deleted_open_bytes / 1e6, 2),
          round(last.deleted_open_bytes / 1e6, 2),
          round(max('deleted_open_bytes') / 1e6, 2),
          round(bytesSlope, 3),
        ],
        ['RSS, MB', first.rss_mb, last.rss_mb, max('rss_mb'), ''],
      ],
    });
    out.charts.push({
      id: 'descriptors',
      title: 'Open descriptors at start, end and max',
      unit: '',
      bars: [
        { label: 'start', value: first.descriptors },
        { label: 'end', value: last.descriptors },
        { label: 'max', value: max('descriptors') },
      ],
    });
    return out;
  },
};
