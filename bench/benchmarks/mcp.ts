/**
 * MCP over HTTP (issue 6 §4): the added cost of `tools/call search` over Streamable HTTP (one
 * JSON-RPC POST; the MCP SDK client, which also validates answers, is reported beside it) against
 * the same search called in process (target: at most 3 ms at p50), and 32 concurrent clients with autocannon: zero errors, throughput, latency percentiles,
 * resident memory growing at most 10%.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { corpusQueries } from '../corpus/synthetic.js';
import { numberOption } from '../lib/args.js';
import { SkipError, type BenchContext, type Benchmark } from '../lib/benchmark.js';
import { startBenchServer, toolErrors } from '../lib/http-server.js';
import { fixtureOptions, fixtureSizes, indexedCorpus, openFixture, vectorsNote } from '../lib/indexed-fixture.js';
import { autocannonCli, MCP_HEADERS, runAutocannon, sampleRss, searchCallBody } from '../lib/load.js';
import { emptyOutput, target } from '../lib/results.js';
import { round, roundSpread, spread } from '../lib/stats.js';

export const mcpBenchmark: Benchmark = {
  name: 'mcp',
  description: 'tools/call over HTTP vs in process; 32 concurrent clients with autocannon',
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
        // Interleaved per query: the calls differ only by the MCP/HTTP layer. The plain HTTP call is
        // what the server adds (one JSON-RPC POST, as any agent's client sends it); the SDK client
        // also validates the answer against the tool's output schema, in the caller's process.
        for (const [i, q] of queries.entries()) {
          let t0 = performance.now();
          await engine.search({ query: q, ...args });
          inproc.push(performance.now() - t0);
          t0 = performance.now();
          const res = await fetch(server.mcpUrl, {
            method: 'POST',
            headers: MCP_HEADERS,
            body: searchCallBody(q, args, i + 1),
          });
          const answer = (await res.json()) as { result?: { isError?: boolean } };
          http.push(performance.now() - t0);
          if (!res.ok || !answer.result || answer.result.isError)
            throw new Error(
              `tools/call search over HTTP failed: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`,
            );
          t0 = performance.now();
          const r = await client.callTool({ name: 'search', arguments: { query: q, ...args } });
          sdk.push(performance.now() - t0);
          if (r.isError)
            throw new Error(
              `tools/call search failed: ${JSON.stringify(r.structuredContent ?? r.content).slice(0, 300)}`,
            );
        }
        const a = spread(inproc);
        const b = spread(http);
        const c = spread(sdk);
        const overhead = b.p50 - a.p50;
        // The same cost per query pair: less sensitive to noise that hits both calls of a pair alike.
        const paired = spread(http.map((x, i) => x - inproc[i]));
        ctx.log(
          `   in process p50 ${a.p50.toFixed(2)} ms, over HTTP p50 ${b.p50.toFixed(2)} ms: +${overhead.toFixed(2)} ms (paired median +${paired.p50.toFixed(2)} ms); through the SDK client p50 ${c.p50.toFixed(2)} ms (+${(c.p50 - a.p50).toFixed(2)} ms)`,
        );

        const errorsBefore = await toolErrors(server);
        const body = searchCallBody(queries[0], { folders: [fx.dir] });
        // Memory is measured from a steady state: the default mode's first calls load the embedding
        // model (hundreds of MB in its workers), which is start-up, not growth under load. So: calls
        // in the default mode, a warm-up burst as long as a fifth of the run, then one more call, which
        // returns after the burst's abandoned requests have been served.
        for (const q of queries.slice(0, 5))
          await client.callTool({ name: 'search', arguments: { query: q, folders: [fx.dir] } });
        await runAutocannon(ctx.root, {
          url: server.mcpUrl,
          connections: 32,
          durationS: Math.max(2, Math.round(durationS / 5)),
          body,
          headers: MCP_HEADERS,
        });
        await client.callTool({ name: 'search', arguments: { query: queries[0], folders: [fx.dir] } });
        const rss = sampleRss(250);
        const load = await runAutocannon(ctx.root, {
          url: server.mcpUrl,
          connections: 32,
          durationS,
          body,
          headers: MCP_HEADERS,
        });
        const mem = rss.stop();
        const errorsAfter = await toolErrors(server);
        const toolErrs = errorsBefore === null || errorsAfter === null ? null : errorsAfter - errorsBefore;
        // No completed request in the window is a failure too, not a clean run with zero errors.
        const failures = load.errors + load.non2xx + (toolErrs ?? 0) + (load.requests_total === 0 ? 1 : 0);
        if (load.requests_total === 0) out.notes.push(`No request completed within the ${durationS} s load window.`);
        // Quarter medians, not the first and last sample: one sample lands anywhere in a GC cycle
        // (a 60 s run read +21 % end to start where a 150 s one of the same build read -11 %).
        const growth = mem.late / mem.early - 1;
        ctx.log(
          `   32 clients × ${durationS} s: ${load.requests_per_s.toFixed(0)} req/s, p50 ${load.latency_ms.p50} ms, p99 ${load.latency_ms.p99} ms, failures ${failures}, RSS ${mem.first.toFixed(0)} → ${mem.last.toFixed(0)} MB (quarter medians ${mem.early.toFixed(0)} → ${mem.late.toFixed(0)})`,
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
          load: {
            connections: 32,
            duration_s: durationS,
            default_mode: engine.settings.get<string>('mcp.default_mode'),
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
            'resident memory growth under load (median of the last quarter of samples against the first)',
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
              'tools/call through the MCP SDK client (validates the answer too)',
              round(c.p50, 2),
              round(c.p95, 2),
              `${round(c.min, 2)}–${round(c.max, 2)}`,
            ],
          ],
        });
        out.tables.push({
          title: `32 concurrent clients for ${durationS} s (autocannon, default mode)`,
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
      } finally {
        await client.close();
        await server.close();
      }
    } finally {
      await engine.close();
    }
  },
};
