/**
 * MCP over HTTP (issue 6 §4): the added cost of `tools/call search` over Streamable HTTP (one
 * JSON-RPC POST; the MCP SDK client, which also validates answers, is reported beside it) against
 * the same search called in process (target: at most 3 ms at p50), with the server's own share of
 * it (request in to answer out) beside the round trip; and 32 concurrent clients with autocannon
 * against `cairn serve` in its own process, compiled and with the environment the app gives it:
 * zero errors, throughput, latency percentiles, resident memory growing at most 10%.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusQueries } from '../corpus/synthetic.js';
import { numberOption } from '../lib/args.js';
import { SkipError, type BenchContext, type Benchmark } from '../lib/benchmark.js';
import { startBenchServer, toolErrors } from '../lib/http-server.js';
import { buildCompiledCli } from '../lib/compiled-cli.js';
import { engineEnv, engineFlags, serveNote, startServe, stop } from '../lib/serve-child.js';
import {
  fixtureOptions,
  fixtureSizes,
  indexedCorpus,
  openFixture,
  vectorsNote,
  type IndexedCorpus,
} from '../lib/indexed-fixture.js';
import { autocannonCli, MCP_HEADERS, runAutocannon, sampleRss, searchCallBody, type LoadResult } from '../lib/load.js';
import { emptyOutput, target } from '../lib/results.js';
import { round, roundSpread, spread, type Spread } from '../lib/stats.js';
import { timeServerRequests } from '../lib/server-timing.js';

interface Overhead {
  queries: string[];
  /** In process, plain HTTP POST, through the SDK client, and the server's hold of the HTTP call. */
  inproc: Spread;
  http: Spread;
  sdk: Spread;
  held: Spread;
  paired: Spread;
  serverPaired: Spread;
  defaultMode: string;
}

/** The same sparse searches in process and over MCP, interleaved, on a server in this process. */
async function measureOverhead(ctx: BenchContext, fx: IndexedCorpus, n: number): Promise<Overhead> {
  const engine = await openFixture(ctx.root, fx);
  try {
    const server = await startBenchServer(ctx.root, engine, fx.home);
    const client = new Client({ name: 'cairn-bench', version: '0.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
      const queries = corpusQueries(n, 9);
      const args = { mode: 'sparse' as const, top_k: 10, folders: [fx.dir] };
      for (const q of queries.slice(0, 20)) {
        await engine.search({ query: q, ...args });
        await client.callTool({ name: 'search', arguments: { query: q, ...args } });
      }
      const inproc: number[] = [];
      const http: number[] = [];
      const sdk: number[] = [];
      // Of the plain HTTP call's time, what the server held it (the rest is the client's HTTP
      // stack and the loopback, the same for any server); the SDK client's calls are not timed.
      const held: number[] = [];
      // Interleaved per query: the calls differ only by the MCP/HTTP layer. The plain HTTP call is
      // what the server adds (one JSON-RPC POST, as any agent's client sends it); the SDK client
      // also validates the answer against the tool's output schema, in the caller's process.
      for (const [i, q] of queries.entries()) {
        let t0 = performance.now();
        await engine.search({ query: q, ...args });
        inproc.push(performance.now() - t0);
        const serverTiming = timeServerRequests();
        t0 = performance.now();
        const res = await fetch(server.mcpUrl, {
          method: 'POST',
          headers: MCP_HEADERS,
          body: searchCallBody(q, args, i + 1),
        });
        const answer = (await res.json()) as { result?: { isError?: boolean } };
        http.push(performance.now() - t0);
        serverTiming.stop();
        if (serverTiming.times.length !== 1)
          throw new Error(`expected one timed request on the server, got ${serverTiming.times.length}`);
        held.push(serverTiming.times[0]);
        if (!res.ok || !answer.result || answer.result.isError)
          throw new Error(`tools/call search over HTTP failed: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
        t0 = performance.now();
        const r = await client.callTool({ name: 'search', arguments: { query: q, ...args } });
        sdk.push(performance.now() - t0);
        if (r.isError)
          throw new Error(
            `tools/call search failed: ${JSON.stringify(r.structuredContent ?? r.content).slice(0, 300)}`,
          );
      }
      return {
        queries,
        inproc: spread(inproc),
        http: spread(http),
        sdk: spread(sdk),
        held: spread(held),
        // The same cost per query pair: less sensitive to noise that hits both calls of a pair alike.
        paired: spread(http.map((x, i) => x - inproc[i])),
        serverPaired: spread(held.map((x, i) => x - inproc[i])),
        defaultMode: engine.settings.get<string>('mcp.default_mode'),
      };
    } finally {
      await client.close();
      await server.close();
    }
  } finally {
    await engine.close();
  }
}

interface Load {
  load: LoadResult;
  mem: ReturnType<ReturnType<typeof sampleRss>['stop']>;
  toolErrors: number | null;
  malloc: string;
}

/**
 * 32 clients against `cairn serve` as the app runs it (compiled, the app's malloc settings): the
 * memory that grows under load is that process's, not a benchmark's that also built the fixture.
 */
async function measureLoad(ctx: BenchContext, fx: IndexedCorpus, query: string, durationS: number): Promise<Load> {
  const env = engineEnv(ctx.options, { CAIRN_HOME: fx.home, LANCEDB_LOG: 'error' });
  const flags = engineFlags(ctx.options);
  const served = await startServe([...flags, ...buildCompiledCli(ctx.root, ctx.log).argv([])], env, ctx.root);
  try {
    const admin = { url: served.url, mcpUrl: served.mcpUrl, adminToken: adminToken(fx.home), close: async () => {} };
    const errorsBefore = await toolErrors(admin);
    const body = searchCallBody(query, { folders: [fx.dir] });
    const call = () => fetch(served.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body }).then((r) => r.text());
    // Memory is measured from a steady state: the default mode's first calls load the embedding
    // model (hundreds of MB in its workers), which is start-up, not growth under load. So: calls
    // in the default mode, a warm-up burst as long as a fifth of the run, then one more call, which
    // returns after the burst's abandoned requests have been served.
    for (let i = 0; i < 5; i++) await call();
    const burst = { url: served.mcpUrl, connections: 32, body, headers: MCP_HEADERS };
    await runAutocannon(ctx.root, { ...burst, durationS: Math.max(2, Math.round(durationS / 5)) });
    await call();
    const rss = sampleRss(250, served.pid);
    const load = await runAutocannon(ctx.root, { ...burst, durationS });
    const mem = rss.stop();
    const errorsAfter = await toolErrors(admin);
    return {
      load,
      mem,
      toolErrors: errorsBefore === null || errorsAfter === null ? null : errorsAfter - errorsBefore,
      malloc: serveNote(env, flags),
    };
  } finally {
    await stop(served.child);
  }
}

/** The admin token `cairn serve` keeps in its data folder (its counters are behind it). */
function adminToken(home: string): string {
  return readFileSync(join(home, 'admin-token'), 'utf8').trim();
}

export const mcpBenchmark: Benchmark = {
  name: 'mcp',
  description: 'tools/call over HTTP vs in process; 32 concurrent clients with autocannon against cairn serve',
  async run(ctx: BenchContext) {
    if (!autocannonCli(ctx.root))
      throw new SkipError('autocannon is not installed (npm ci installs it as a dev dependency)');
    const out = emptyOutput();
    const size = Math.max(...fixtureSizes(ctx.quick, ctx.options));
    const n = numberOption(ctx.options, 'queries', ctx.quick ? 100 : 500);
    const durationS = numberOption(ctx.options, 'duration', ctx.quick ? 10 : 60);
    const fx = await indexedCorpus(ctx.root, size, ctx.log, fixtureOptions(ctx.options));
    const note = vectorsNote(fx);
    if (note) out.notes.push(note);
    const o = await measureOverhead(ctx, fx, n);
    const { inproc: a, http: b, sdk: c, held: s, paired, serverPaired, queries } = o;
    const overhead = b.p50 - a.p50;
    ctx.log(
      `   in process p50 ${a.p50.toFixed(2)} ms, over HTTP p50 ${b.p50.toFixed(2)} ms: +${overhead.toFixed(2)} ms (paired median +${paired.p50.toFixed(2)} ms), of which the server +${(s.p50 - a.p50).toFixed(2)} ms (paired +${serverPaired.p50.toFixed(2)}); through the SDK client p50 ${c.p50.toFixed(2)} ms (+${(c.p50 - a.p50).toFixed(2)} ms)`,
    );
    const { load, mem, toolErrors: toolErrs, malloc } = await measureLoad(ctx, fx, queries[0], durationS);
    // No completed request in the window is a failure too, not a clean run with zero errors.
    const failures = load.errors + load.non2xx + (toolErrs ?? 0) + (load.requests_total === 0 ? 1 : 0);
    if (load.requests_total === 0) out.notes.push(`No request completed within the ${durationS} s load window.`);
    // Quarter medians, not the first and last sample: one sample lands anywhere in a GC cycle
    // (a 60 s run read +21 % end to start where a 150 s one of the same build read -11 %).
    const growth = mem.late / mem.early - 1;
    ctx.log(
      `   cairn serve (${malloc}), 32 clients × ${durationS} s: ${load.requests_per_s.toFixed(0)} req/s, p50 ${load.latency_ms.p50} ms, p99 ${load.latency_ms.p99} ms, failures ${failures}, RSS ${mem.first.toFixed(0)} → ${mem.last.toFixed(0)} MB (quarter medians ${mem.early.toFixed(0)} → ${mem.late.toFixed(0)})`,
    );
    out.figures = {
      chunks: fx.chunks,
      vectors: fx.vectors,
      overhead_queries: queries.length,
      in_process_ms: roundSpread(a, 2),
      http_ms: roundSpread(b, 2),
      sdk_client_ms: roundSpread(c, 2),
      overhead_sdk_client_p50_ms: round(c.p50 - a.p50, 3),
      overhead_p50_ms: round(overhead, 3),
      overhead_paired_ms: roundSpread(paired, 2),
      server_held_ms: roundSpread(s, 2),
      overhead_server_p50_ms: round(s.p50 - a.p50, 3),
      overhead_server_paired_ms: roundSpread(serverPaired, 2),
      load: {
        server: 'cairn serve, compiled, its own process',
        malloc,
        connections: 32,
        duration_s: durationS,
        default_mode: o.defaultMode,
        ...load,
        tool_errors: toolErrs,
      },
      rss_mb: {
        start: round(mem.first, 1),
        end: round(mem.last, 1),
        first_quarter_median: round(mem.early, 1),
        last_quarter_median: round(mem.late, 1),
        max: round(mem.max, 1),
        samples: mem.samples,
      },
    };
    out.targets.push(
      target('overhead-p50', 'tools/call over HTTP minus in-process search, p50', overhead, '<=', 3, 'ms'),
    );
    out.targets.push(target('load-errors', `errors under 32 clients for ${durationS} s`, failures, '<=', 0));
    out.targets.push(
      target(
        'load-rss-growth',
        'resident memory growth of cairn serve under load (median of the last quarter of samples against the first)',
        growth * 100,
        '<=',
        10,
        '%',
      ),
    );
    out.tables.push({
      title: `MCP at ${fx.chunks} chunks, sparse search, top_k 10`,
      columns: ['path', 'p50 ms', 'p95 ms', 'min–max ms'],
      rows: [
        [
          'engine.search in process (reference)',
          round(a.p50, 2),
          round(a.p95, 2),
          `${round(a.min, 2)}–${round(a.max, 2)}`,
        ],
        [
          'tools/call over HTTP (one JSON-RPC POST)',
          round(b.p50, 2),
          round(b.p95, 2),
          `${round(b.min, 2)}–${round(b.max, 2)}`,
        ],
        [
          'of which the server held it (request in to answer out)',
          round(s.p50, 2),
          round(s.p95, 2),
          `${round(s.min, 2)}–${round(s.max, 2)}`,
        ],
        [
          'tools/call through the MCP SDK client (validates the answer too)',
          round(c.p50, 2),
          round(c.p95, 2),
          `${round(c.min, 2)}–${round(c.max, 2)}`,
        ],
      ],
    });
    out.tables.push({
      title: `32 concurrent clients for ${durationS} s against cairn serve (autocannon, default mode)`,
      columns: [
        'req/s',
        'requests',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'max ms',
        'errors',
        'non-2xx',
        'tool errors',
        'RSS first → last quarter median (max) MB',
      ],
      rows: [
        [
          round(load.requests_per_s, 1),
          load.requests_total,
          load.latency_ms.p50,
          load.latency_ms.p90,
          load.latency_ms.p99,
          load.latency_ms.max,
          load.errors,
          load.non2xx,
          toolErrs ?? 'n/a',
          `${round(mem.early, 0)} → ${round(mem.late, 0)} (${round(mem.max, 0)})`,
        ],
      ],
    });
    out.charts.push({
      id: 'overhead',
      title: 'search p50: in process vs MCP over HTTP',
      unit: 'ms',
      bars: [
        { label: 'in process', value: a.p50, reference: true },
        { label: 'MCP over HTTP', value: b.p50 },
      ],
    });
    return out;
  },
};
