/**
 * Indexing throughput (issue 6 §2): files/s, chunks/s and MB/s of the text pipeline (walk, parse,
 * chunk, write: what makes a folder searchable by its sparse leg) and end to end with the built-in
 * model. Reference measured in the same run: the model's raw batched throughput on the very chunks
 * the engine produced. Targets: text >= 2,000 chunks/s; end to end <= 1.25x the raw model time.
 */
import * as lancedb from '@lancedb/lancedb';
import { join } from 'node:path';
import { createEmbedder } from '../../main/engine/embed/embedder.js';
import { embeddingText } from '../../main/engine/index/embedding-input.js';
import type { EngineApi } from '../../main/engine/api.js';
import { corpusFolder } from '../lib/corpus-fixture.js';
import { numberOption } from '../lib/args.js';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { cpuMeter } from '../lib/cpu.js';
import { openBenchEngine } from '../lib/engine.js';
import { QUIET_SETTINGS } from '../lib/indexed-fixture.js';
import { engineEmbedder } from '../lib/query-embeddings.js';
import { emptyOutput, target } from '../lib/results.js';
import { round, roundSpread, spread } from '../lib/stats.js';

interface Repeat {
  text_s: number;
  total_s: number;
  raw_s: number;
  files: number;
  chunks: number;
  cores_embedding: number;
  cores_raw: number;
}

/**
 * Polls the folder's job until its text is written (embedding phase or done), then until done.
 * With `textOnly`, the job is cancelled once the text is in (iterating on the text pipeline
 * without minutes of embedding).
 */
async function timeIndex(
  engine: EngineApi,
  folder: string,
  textOnly = false,
): Promise<{ text_s: number; total_s: number; cores: number }> {
  const t0 = performance.now();
  await engine.addFolder({ path: folder });
  const job = await engine.indexFolder(folder, 'create');
  let textS = 0;
  let cpu: ReturnType<typeof cpuMeter> | null = null;
  for (;;) {
    const j = engine.job(job.id) ?? engine.jobs().find((x) => x.folder === folder);
    const done = !j || j.state === 'done';
    if (j && (j.state === 'failed' || j.state === 'cancelled'))
      throw new Error(`index job ${j.state}: ${j.error?.message ?? ''}`);
    if (!textS && (done || j.progress.phase === 'embedding')) {
      textS = (performance.now() - t0) / 1000;
      cpu = cpuMeter();
      if (textOnly && !done) {
        engine.jobAction(j.id, 'cancel');
        break;
      }
    }
    if (done) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await engine.idle();
  return { text_s: textS, total_s: (performance.now() - t0) / 1000, cores: cpu?.cores() ?? 0 };
}

/** Chunks of the small corpus indexed before timing: every kind (md, ts, py, go) is in it. */
const WARM_CHUNKS = 300;

/**
 * Parse workers start with the first job and stop after 20 s without work; their start (threads,
 * tree-sitter grammars) is paid once per burst, not per chunk. Like the model, they are warmed by
 * real work first: a small folder of every kind is indexed and removed before the timed job.
 */
async function warmParseWorkers(engine: EngineApi, dir: string): Promise<void> {
  await engine.addFolder({ path: dir });
  await engine.indexFolder(dir, 'create');
  await engine.idle();
  await engine.removeFolder(dir);
}

export const indexingBenchmark: Benchmark = {
  name: 'indexing',
  description: 'indexing throughput: text-only pipeline and end to end, beside the raw model',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const size = numberOption(ctx.options, 'chunks', ctx.quick ? 1_000 : 10_000);
    const repeats = numberOption(ctx.options, 'repeats', ctx.quick ? 2 : 3);
    // `--text-only 1`: the text pipeline alone (the end-to-end and raw-model runs take minutes).
    const textOnly = ['1', 'true', 'yes'].includes(ctx.options.get('text-only') ?? '');
    const corpus = corpusFolder(size);
    const reps: Repeat[] = [];
    for (let r = 0; r < repeats; r++) {
      const home = join(ctx.tmp, `home-${r}`);
      const engine = await openBenchEngine(ctx.root, home, QUIET_SETTINGS);
      let t: Awaited<ReturnType<typeof timeIndex>>;
      try {
        // Load the model first: a person's engine has it loaded long before a folder is added.
        await (await engineEmbedder(engine))?.embedQuery('warm up');
        await warmParseWorkers(engine, corpusFolder(WARM_CHUNKS).dir);
        t = await timeIndex(engine, corpus.dir, textOnly);
      } finally {
        await engine.close();
      }
      const db = await lancedb.connect(join(home, 'index'));
      const rows = (await (
        await db.openTable('chunks')
      )
        .query()
        .select(['rel', 'heading', 'symbol', 'text'])
        .toArray()) as { rel: string; heading: string; symbol: string; text: string }[];
      db.close();
      let rawS = NaN;
      let rawCores = NaN;
      if (!textOnly) {
        const texts = rows.map(embeddingText);
        const embedder = await createEmbedder({ model: 'cairn/use-lite', dataDir: home });
        try {
          await embedder.embedDocuments(texts.slice(0, 32));
          const cpu = cpuMeter();
          const t0 = performance.now();
          await embedder.embedDocuments(texts);
          rawS = (performance.now() - t0) / 1000;
          rawCores = cpu.cores();
        } finally {
          await embedder.close();
        }
      }
      reps.push({
        text_s: t.text_s,
        total_s: t.total_s,
        raw_s: rawS,
        files: corpus.summary.files,
        chunks: rows.length,
        cores_embedding: t.cores,
        cores_raw: rawCores,
      });
      ctx.log(
        `   repeat ${r + 1}: ${rows.length} chunks; text ${t.text_s.toFixed(2)} s${textOnly ? ' (text only)' : `, end to end ${t.total_s.toFixed(1)} s, raw model ${rawS.toFixed(1)} s`}`,
      );
    }
    const chunks = reps[0].chunks;
    const mb = corpus.summary.bytes / 2 ** 20;
    const text = spread(reps.map((r) => r.text_s));
    const total = spread(reps.map((r) => r.total_s));
    const raw = spread(reps.map((r) => r.raw_s));
    const ratio = spread(reps.map((r) => r.total_s / r.raw_s));
    const textRate = spread(reps.map((r) => r.chunks / r.text_s));
    out.figures = {
      corpus: { ...corpus.summary, chunks, target_chunks: size },
      repeats,
      text_s: roundSpread(text),
      end_to_end_s: roundSpread(total),
      raw_model_s: roundSpread(raw),
      end_to_end_over_raw: roundSpread(ratio),
      text_chunks_per_s: roundSpread(textRate, 1),
      cores_busy_embedding: roundSpread(spread(reps.map((r) => r.cores_embedding)), 2),
      cores_busy_raw: roundSpread(spread(reps.map((r) => r.cores_raw)), 2),
    };
    out.targets.push(
      target(
        'text-chunks-per-s',
        'text pipeline (walk, parse, chunk, write) chunks/s',
        textRate.median,
        '>=',
        2000,
        'chunks/s',
      ),
    );
    if (!textOnly)
      out.targets.push(
        target('e2e-over-raw', 'end-to-end time / raw model time on the same chunks', ratio.median, '<=', 1.25, 'x'),
      );
    out.notes.push(
      `Timed on a running engine: the model loaded and the parse workers up (a ${WARM_CHUNKS}-chunk folder of every kind indexed and removed first), the sources run by tsx.`,
    );
    const row = (label: string, s: number): (string | number)[] => [
      label,
      round(s, 2),
      round(corpus.summary.files / s, 1),
      round(chunks / s, 1),
      round(mb / s, 2),
    ];
    out.tables.push({
      title: `Indexing ${corpus.summary.files} files, ${chunks} chunks, ${mb.toFixed(1)} MB (median of ${repeats})`,
      columns: ['pipeline', 'seconds', 'files/s', 'chunks/s', 'MB/s'],
      rows: [
        row('text only (sparse + graph searchable)', text.median),
        ...(textOnly
          ? []
          : [
              row('end to end (with vectors)', total.median),
              row('raw model on the same chunks (reference)', raw.median),
            ]),
      ],
      note: textOnly
        ? `Text only (--text-only). Spread over repeats: ${round(text.min, 2)}–${round(text.max, 2)} s.`
        : `Spread over repeats: text ${round(text.min, 2)}–${round(text.max, 2)} s; end to end ${round(total.min, 1)}–${round(total.max, 1)} s; raw ${round(raw.min, 1)}–${round(raw.max, 1)} s. Cores busy while embedding: ${round(spread(reps.map((r) => r.cores_embedding)).median, 2)} (raw model: ${round(spread(reps.map((r) => r.cores_raw)).median, 2)}).`,
    });
    out.charts.push({
      id: 'chunks-per-s',
      title: 'Indexing throughput',
      unit: 'chunks/s',
      bars: [
        { label: 'text only', value: chunks / text.median },
        ...(textOnly
          ? []
          : [
              { label: 'end to end', value: chunks / total.median },
              { label: 'raw model (reference)', value: chunks / raw.median, reference: true },
            ]),
      ],
    });
    return out;
  },
};
