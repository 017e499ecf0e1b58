/**
 * 32 concurrent MCP clients against a COLD `cairn serve` (issues 16 and 17): the server is its own
 * process, compiled as the packaged app runs it, started on an existing index, and the clients
 * begin the moment it answers tools/list, in the default mode (the first searches load the
 * embedding model), each with its own stream of queries. Resident memory and threads are sampled
 * from that moment to the end, and again after the load has stopped (memory handed back or kept).
 *
 * The bound is set against what must be resident: the engine as it answers its first call (Node,
 * the engine's code, the opened tables), plus the embedding model's weights once (the .onnx file),
 * plus the index working set a search reads (the index files under _indices, and the live vectors,
 * rows x dimensions x 4 bytes, which a search scans). Not counted, because it is not the model or
 * the index: the embedding worker's runtime (its V8 isolate, ONNX Runtime's code and buffers),
 * LanceDB's code and caches and the allocator's slack; the RSS when the first search has answered
 * (the model loaded) is reported beside it. Peak RSS must stay within 1.5x of the floor.
 *
 * The server gets the environment and Node flags the app gives its engine (kernel/malloc-env.ts,
 * kernel/young-generation.ts); `--malloc glibc-default` leaves glibc's defaults and
 * `--young-generation v8-default` V8's. `--calls N` ends the load after N calls instead of
 * after `--duration` seconds, so runs on a machine under different load compare at equal work.
 */
import { availableParallelism } from 'node:os';
import { corpusQueries } from '../corpus/synthetic.js';
import { numberOption } from '../lib/args.js';
import { SkipError, type BenchContext, type Benchmark } from '../lib/benchmark.js';
import { buildCompiledCli } from '../lib/compiled-cli.js';
import { fixtureOptions, fixtureSizes, indexedCorpus, vectorsNote } from '../lib/indexed-fixture.js';
import { MCP_HEADERS, searchCallBody } from '../lib/load.js';
import { pruneOldVersions, residentParts } from '../lib/resident-floor.js';
import { emptyOutput, target } from '../lib/results.js';
import { engineEnv, engineFlags, processFigures, serveNote, startServe, stop } from '../lib/serve-child.js';
import { round, spread } from '../lib/stats.js';

const CLIENTS = 32;
interface Sample {
  t: number;
  rssMb: number;
  threads: number;
}

export const concurrencyBenchmark: Benchmark = {
  name: 'concurrency',
  description: `${CLIENTS} concurrent MCP clients against a cold cairn serve: RSS and threads from the first call`,
  async run(ctx: BenchContext) {
    if (process.platform !== 'linux') throw new SkipError('reads /proc for the server process (Linux only)');
    const out = emptyOutput();
    const size = Math.max(...fixtureSizes(ctx.quick, ctx.options));
    const durationS = numberOption(ctx.options, 'duration', ctx.quick ? 15 : 60);
    const calls = numberOption(ctx.options, 'calls', 0);
    const fx = await indexedCorpus(ctx.root, size, ctx.log, fixtureOptions(ctx.options));
    await pruneOldVersions(fx.home);
    const note = vectorsNote(fx);
    if (note) out.notes.push(note);
    const compiled = buildCompiledCli(ctx.root, ctx.log);
    const queries = corpusQueries(2000, 23);
    const served = await startServe(
      [...engineFlags(ctx.options), ...compiled.argv([])],
      engineEnv(ctx.options, { CAIRN_HOME: fx.home, LANCEDB_LOG: 'error' }),
      ctx.root,
    );
    const { child, pid, mcpUrl: url } = served;
    const samples: Sample[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      const cold = processFigures(pid);
      if (!cold) throw new Error('cannot read the server process from /proc');
      const start = performance.now();
      const take = () => {
        const f = processFigures(pid);
        if (f) samples.push({ t: (performance.now() - start) / 1000, ...f });
      };
      take();
      timer = setInterval(take, 250);
      const latencies: number[] = [];
      const failures: string[] = [];
      let next = 0;
      let atFirstAnswer = null as { rssMb: number; threads: number } | null;
      // With --calls the load is a number of calls (the deadline only guards against a hang).
      const deadline = start + (calls > 0 ? 600 : durationS) * 1000;
      const more = () => performance.now() < deadline && (calls === 0 || next < calls);
      // Each client sends its next call when its last one answered (as an agent does), every call
      // a different query in the default mode, so caches see a realistic spread, not one hot query.
      const client = async (c: number) => {
        while (more()) {
          const q = queries[next++ % queries.length];
          const t = performance.now();
          try {
            const res = await fetch(url, {
              method: 'POST',
              headers: MCP_HEADERS,
              body: searchCallBody(q, { folders: [fx.dir] }, c),
            });
            const body = (await res.json()) as { result?: { isError?: boolean }; error?: unknown };
            if (!res.ok || !body.result || body.result.isError)
              failures.push(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
            else {
              latencies.push(performance.now() - t);
              atFirstAnswer ??= processFigures(pid);
            }
          } catch (err) {
            failures.push((err as Error).message);
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
      const loadEnd = samples.length;
      take();
      // Memory kept once the load stops: what a busy engine keeps between bursts.
      await new Promise((r) => setTimeout(r, 5000));
      take();
      clearInterval(timer);
      timer = undefined;
      const during = samples.slice(0, loadEnd + 1);
      const peakRss = Math.max(...during.map((s) => s.rssMb));
      const peakThreads = Math.max(...during.map((s) => s.threads));
      const after = samples[samples.length - 1];
      const parts = residentParts(fx.home);
      const loadS = (performance.now() - start) / 1000;
      const vectorsMb = parts.vectorsMb(fx.embedded);
      const must = cold.rssMb + parts.modelMb + parts.indexMb + vectorsMb;
      const malloc = serveNote(engineEnv(ctx.options, {}), engineFlags(ctx.options));
      const lat = spread(latencies.length > 0 ? latencies : [Number.NaN]);
      ctx.log(
        `   malloc ${malloc}; cold serve ${cold.rssMb.toFixed(0)} MB / ${cold.threads} threads; first answer ${atFirstAnswer?.rssMb.toFixed(0)} MB; ${CLIENTS} clients × ${loadS.toFixed(1)} s: ${latencies.length} answers, ${failures.length} failures, p50 ${lat.p50.toFixed(0)} ms, p95 ${lat.p95.toFixed(0)} ms; peak ${peakRss.toFixed(0)} MB / ${peakThreads} threads; 5 s after ${after.rssMb.toFixed(0)} MB / ${after.threads} threads; must be resident ${must.toFixed(0)} MB (model ${parts.modelMb.toFixed(0)}, index structures ${parts.indexMb.toFixed(1)}, vectors ${vectorsMb.toFixed(1)})`,
      );
      if (failures.length > 0) out.notes.push(`First failure: ${failures[0]}`);
      out.figures = {
        chunks: fx.chunks,
        vectors: fx.vectors,
        clients: CLIENTS,
        duration_s: round(loadS, 1),
        calls: calls > 0 ? calls : null,
        malloc,
        answers_per_s: round(latencies.length / loadS, 1),
        default_mode: 'server default (mcp.default_mode)',
        answers: latencies.length,
        failures: failures.length,
        latency_ms: { p50: round(lat.p50, 1), p95: round(lat.p95, 1), max: round(lat.max, 1) },
        cold: { rss_mb: round(cold.rssMb, 1), threads: cold.threads },
        first_answer: atFirstAnswer ? { rss_mb: round(atFirstAnswer.rssMb, 1), threads: atFirstAnswer.threads } : null,
        peak: { rss_mb: round(peakRss, 1), threads: peakThreads },
        after_5s: { rss_mb: round(after.rssMb, 1), threads: after.threads },
        must_be_resident_mb: {
          total: round(must, 1),
          engine_at_first_answer: round(cold.rssMb, 1),
          model_weights: round(parts.modelMb, 1),
          model_file: parts.modelFile,
          index_structures: round(parts.indexMb, 1),
          vectors: round(vectorsMb, 1),
          counts:
            'engine RSS at its first answer + the .onnx file + index files under _indices + live vectors (rows x dims x 4); not the embedding worker runtime, LanceDB caches or allocator slack',
        },
        rss_series: during.filter((_, i) => i % 4 === 0).map((s) => [round(s.t, 1), round(s.rssMb, 0), s.threads]),
      };
      out.targets.push(
        target('cold-load-errors', `errors under ${CLIENTS} clients from a cold start`, failures.length, '<=', 0),
      );
      out.targets.push(
        target(
          'cold-load-rss',
          'peak RSS under 32 clients from a cold start / what must be resident',
          peakRss / must,
          '<=',
          1.5,
          'x',
        ),
      );
      out.tables.push({
        title: `${CLIENTS} clients from a cold start, ${calls > 0 ? `${calls} calls` : `${durationS} s`}, ${fx.chunks} chunks`,
        columns: ['figure', 'RSS MB', 'threads'],
        rows: [
          ['serve answering its first call', round(cold.rssMb, 0), cold.threads],
          [
            'first search answered (model loaded)',
            round(atFirstAnswer?.rssMb ?? Number.NaN, 0),
            atFirstAnswer?.threads ?? '',
          ],
          ['peak under load', round(peakRss, 0), peakThreads],
          ['5 s after the load', round(after.rssMb, 0), after.threads],
          [
            `must be resident: engine at first answer + model weights (${round(parts.modelMb, 0)}) + index structures (${round(parts.indexMb, 1)}) + vectors (${round(vectorsMb, 1)})`,
            round(must, 0),
            '',
          ],
        ],
        note: `malloc ${malloc}; ${latencies.length} answers in ${round(loadS, 1)} s, ${failures.length} failures, p50 ${round(lat.p50, 0)} ms, p95 ${round(lat.p95, 0)} ms on ${availableParallelism()} cores (load recorded with the machine)`,
      });
      out.charts.push({
        id: 'rss',
        title: `cairn serve RSS under ${CLIENTS} clients from a cold start`,
        unit: 'MB',
        bars: [
          { label: 'must be resident', value: must, reference: true },
          { label: 'first answer', value: cold.rssMb },
          { label: 'peak', value: peakRss },
          { label: '5 s after', value: after.rssMb },
        ],
      });
      return out;
    } finally {
      if (timer) clearInterval(timer);
      await stop(child);
    }
  },
};
