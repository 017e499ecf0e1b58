/**
 * Peak RSS while indexing from a cold start (issue 17): `cairn index <folder>` as its own process,
 * compiled as the packaged app runs the engine and with the environment the app gives it, on a
 * fresh data folder (only the model files are there: converting the built-in model is a one-time
 * step, not indexing), with vectors from the model. The peak is the process's VmHWM.
 *
 * It is held against what must be resident (bench/lib/resident-floor.ts): the engine opened on the
 * indexed folder with nothing to do (the peak of `cairn status` on it, a process of its own), plus
 * the model's weights once, plus the index structures and the live vectors the job wrote. Not
 * counted: the embedding workers' runtimes (one per core while documents are embedded, each with
 * its own copy of the model), the job's batches in flight and the allocator's slack.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SettingsStore } from '../../main/engine/config/settings-store.js';
import { SkipError, type BenchContext, type Benchmark } from '../lib/benchmark.js';
import { buildCompiledCli, type CompiledCli } from '../lib/compiled-cli.js';
import { corpusFolder } from '../lib/corpus-fixture.js';
import { fixtureOptions, fixtureSizes, indexedCorpus } from '../lib/indexed-fixture.js';
import { residentParts } from '../lib/resident-floor.js';
import { emptyOutput, target } from '../lib/results.js';
import { round } from '../lib/stats.js';
import { engineEnv, mallocNote, peakRssMb, processFigures } from '../lib/serve-child.js';

interface Run {
  peakMb: number;
  seconds: number;
  threads: number;
  stdout: string;
}

/** Runs the compiled `cairn <args>` to its end, reading its peak RSS (VmHWM) and threads while it runs. */
function runMeasured(cli: CompiledCli, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, cli.argv(args), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakMb = 0;
    let threads = 0;
    child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-2000)));
    const take = () => {
      peakMb = Math.max(peakMb, peakRssMb(child.pid!) ?? 0);
      threads = Math.max(threads, processFigures(child.pid!)?.threads ?? 0);
    };
    const timer = setInterval(take, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`cairn ${args[0]} exited with ${code}: ${stderr}`));
      else resolve({ peakMb, seconds: (performance.now() - t0) / 1000, threads, stdout });
    });
  });
}

export const indexingRssBenchmark: Benchmark = {
  name: 'indexing-rss',
  description:
    'peak RSS of cairn index from a cold start (fresh data folder, model vectors) against what must be resident',
  async run(ctx: BenchContext) {
    if (process.platform !== 'linux') throw new SkipError('reads /proc for the indexing process (Linux only)');
    const out = emptyOutput();
    const size = Math.max(...fixtureSizes(ctx.quick, ctx.options));
    // The kept fixture's data folder holds the converted built-in model; the corpus is written fresh.
    const fx = await indexedCorpus(ctx.root, size, ctx.log, fixtureOptions(ctx.options));
    const corpus = corpusFolder(size);
    const compiled = buildCompiledCli(ctx.root, ctx.log);
    const home = mkdtempSync(join(tmpdir(), 'cairn-index-rss-'));
    try {
      cpSync(join(fx.home, 'models'), join(home, 'models'), { recursive: true });
      new SettingsStore(home).set({
        'watch.enabled': false,
        'mcp.port': 0,
        folders: [{ path: corpus.dir, include: [], exclude: [] }],
      });
      const env = engineEnv(ctx.options, { CAIRN_HOME: home, LANCEDB_LOG: 'error' });
      const malloc = mallocNote(env);
      const index = await runMeasured(compiled, ['index', corpus.dir, '--json'], env, ctx.root);
      const { jobs } = JSON.parse(index.stdout) as { jobs: { state?: string; progress?: { chunks_total?: number } }[] };
      const job = jobs[0] ?? {};
      if (job.state !== 'done') throw new Error(`the index job ended ${job.state}: ${index.stdout.slice(0, 300)}`);
      const chunks = job.progress?.chunks_total ?? 0;
      const rest = await runMeasured(compiled, ['status', '--json'], env, ctx.root);
      const parts = residentParts(home);
      const vectorsMb = parts.vectorsMb(chunks);
      const must = rest.peakMb + parts.modelMb + parts.indexMb + vectorsMb;
      ctx.log(
        `   malloc ${malloc}; cairn index: ${chunks} chunks in ${index.seconds.toFixed(1)} s (${(chunks / index.seconds).toFixed(0)}/s), peak ${index.peakMb.toFixed(0)} MB / ${index.threads} threads; cairn status ${rest.peakMb.toFixed(0)} MB; must be resident ${must.toFixed(0)} MB (model ${parts.modelMb.toFixed(0)}, index structures ${parts.indexMb.toFixed(1)}, vectors ${vectorsMb.toFixed(1)})`,
      );
      out.figures = {
        chunks,
        cores: availableParallelism(),
        malloc,
        index_s: round(index.seconds, 1),
        chunks_per_s: round(chunks / index.seconds, 1),
        peak: { rss_mb: round(index.peakMb, 1), threads: index.threads },
        engine_at_rest_mb: round(rest.peakMb, 1),
        must_be_resident_mb: {
          total: round(must, 1),
          engine_at_rest: round(rest.peakMb, 1),
          model_weights: round(parts.modelMb, 1),
          model_file: parts.modelFile,
          index_structures: round(parts.indexMb, 1),
          vectors: round(vectorsMb, 1),
          counts:
            'peak RSS of cairn status on the indexed folder + the .onnx file + index files under _indices + live vectors (rows x dims x 4); not the embedding workers (one per core while indexing), batches in flight or allocator slack',
        },
      };
      out.targets.push(
        target(
          'index-cold-rss',
          'peak RSS while indexing from a cold start / what must be resident',
          index.peakMb / must,
          '<=',
          1.5,
          'x',
        ),
      );
      out.tables.push({
        title: `cairn index from a cold start, ${chunks} chunks with model vectors`,
        columns: ['figure', 'RSS MB'],
        rows: [
          ['peak while indexing (VmHWM)', round(index.peakMb, 0)],
          ['cairn status on the indexed folder (engine at rest)', round(rest.peakMb, 0)],
          [
            `must be resident: engine at rest + model weights (${round(parts.modelMb, 0)}) + index structures (${round(parts.indexMb, 1)}) + vectors (${round(vectorsMb, 1)})`,
            round(must, 0),
          ],
        ],
        note: `malloc ${malloc}; ${round(index.seconds, 1)} s, ${round(chunks / index.seconds, 0)} chunks/s, ${index.threads} threads at most, on ${availableParallelism()} cores (load recorded with the machine)`,
      });
      return out;
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
};
