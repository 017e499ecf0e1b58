/**
 * Cairn beside the peers a user would otherwise pick (issue 17): qmd 2.8 (`@tobilu/qmd`, SQLite
 * FTS5 BM25) and SQLite FTS5 itself, on the same Markdown corpus, in the same run. Reported as
 * Cairn / reference ratios (target: every ratio <= 1):
 * - query latency in process (Cairn's sparse search; qmd's `searchLex`; FTS5's top 200 over
 *   Cairn's own analysed chunk text, the physical reference: target Cairn p50 <= 2x FTS5),
 * - query latency over MCP HTTP (Cairn `search` mode sparse; qmd `query` with one lex search),
 * - time to searchable and peak RSS while indexing (each tool in a fresh process of its own),
 * - index size on disk.
 * Calls are interleaved per query (Cairn, then the references, then both over MCP) so load on the
 * shared machine hits every tool alike; each figure is the median over passes of that pass's
 * percentile, and the machine's load average is recorded at every phase.
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { analyzeQuery } from '../../main/engine/index/analyzer.js';
import { DEFAULT_MAINTENANCE } from '../../main/engine/index/maintenance.js';
import { corpusQueries, writeCorpus } from '../corpus/synthetic.js';
import { listOption, numberOption } from '../lib/args.js';
import { loadSet, missingSetFiles, type TestSet } from '../quality/datasets.js';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { openBenchEngine } from '../lib/engine.js';
import { startBenchServer } from '../lib/http-server.js';
import { QUIET_SETTINGS } from '../lib/indexed-fixture.js';
import { MCP_HEADERS, searchCallBody } from '../lib/load.js';
import { ensurePeers, LineChild, runJson, type Peers } from '../lib/peers.js';
import { engineEnv, engineFlags } from '../lib/serve-child.js';
import { buildCompiledCli, type CompiledCli } from '../lib/compiled-cli.js';
import { emptyOutput, target, type BenchOutput } from '../lib/results.js';
import { percentile, round } from '../lib/stats.js';

interface IndexRun {
  ms: number;
  max_rss_mb: number;
}

type Tool = 'cairn' | 'qmd' | 'fts5' | 'cairn_mcp' | 'qmd_mcp';
const TOOLS: Tool[] = ['cairn', 'qmd', 'fts5', 'cairn_mcp', 'qmd_mcp'];

const MD_SCALE = 25_000 / 20_593;

const load = (): number => round(loadavg()[0], 2);

function du(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((s, n) => s + du(join(path, n)), 0);
}

/** The median time and peak RSS of an indexer's repeats. */
function medianRun(runs: IndexRun[]): IndexRun {
  return {
    ms: percentile(
      runs.map((r) => r.ms),
      50,
    ),
    max_rss_mb: percentile(
      runs.map((r) => r.max_rss_mb),
      50,
    ),
  };
}

/** Median over passes of each pass's p50 / p95. */
function summarise(passes: number[][]): { p50: number; p95: number } {
  const med = (xs: number[]) => percentile(xs, 50);
  return {
    p50: round(med(passes.map((p) => percentile(p, 50))), 2),
    p95: round(med(passes.map((p) => percentile(p, 95))), 2),
  };
}

async function post(url: string, body: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: MCP_HEADERS, body });
  const text = await res.text();
  const ms = performance.now() - t0;
  // qmd answers a 2025-era POST as one SSE event; Cairn as JSON (mcp.json_response).
  const json = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? (/^data: (.*)$/m.exec(text)?.[1] ?? '')
    : text;
  let answer: { result?: { isError?: boolean }; error?: unknown } = {};
  try {
    answer = JSON.parse(json) as typeof answer;
  } catch {
    // reported below with the text
  }
  if (!res.ok || !answer.result || answer.result.isError)
    throw new Error(`tools/call over HTTP at ${url} failed: ${res.status} ${text.slice(0, 300)}`);
  return ms;
}

/** Cairn's chunks as { id, text } lines, the analysed text its full-text index holds. */
/** One corpus of a run: written into a folder, with the queries asked of it. */
interface PeerCorpus {
  label: string;
  kind: 'real' | 'synthetic';
  write(dir: string): { files: number; bytes: number };
}

/** Chunks one copy of the four prose sets makes (41,556 measured at 9c05028): sizes are asked in chunks. */
const REAL_CHUNKS_PER_COPY = 41_556;

/**
 * Real prose: the documents of the four prose test sets (SciFact, NPL, Cranfield, MEDLINE; about
 * 42k chunks) as Markdown files, `copies` times over (the issue's way of growing a real corpus).
 * A fractional copy writes that share of each set's documents (0.6: the first 60 % of each), so the
 * sizes the issue compares (25k, 100k, 400k chunks) are reached from one corpus.
 */
function realCorpus(sets: TestSet[], copies: number, files: number): PeerCorpus {
  return {
    label: `real x${copies}${files ? ` in ${files} files` : ''}`,
    kind: 'real',
    write(dir) {
      const docs: { sub: string; name: string; title: string; text: string }[] = [];
      for (let c = 0; c < Math.ceil(copies); c++) {
        const share = Math.min(1, copies - c);
        for (const set of sets)
          for (const d of set.docs.slice(0, Math.round(set.docs.length * share)))
            docs.push({
              sub: join(`copy-${c}`, set.name),
              name: d.id.replace(/[^A-Za-z0-9_-]/g, '_'),
              title: d.title || d.id,
              text: d.text,
            });
      }
      // One file per document, or `files` files of consecutive documents, one section each (the
      // issue's corpus was 2,000 notes of about 12 chunks, where per-file costs weigh less).
      const groups: (typeof docs)[] = files
        ? Array.from({ length: files }, (_, f) =>
            docs.slice(Math.floor((f * docs.length) / files), Math.floor(((f + 1) * docs.length) / files)),
          ).filter((g) => g.length > 0)
        : docs.map((d) => [d]);
      let bytes = 0;
      for (const g of groups) {
        const text = g.map((d) => `# ${d.title}\n\n${d.text}\n`).join('\n');
        mkdirSync(join(dir, g[0].sub), { recursive: true });
        writeFileSync(join(dir, g[0].sub, `${g[0].name}.md`), text);
        bytes += Buffer.byteLength(text);
      }
      return { files: groups.length, bytes };
    },
  };
}

/** Markdown files chunk into fewer pieces than the kinds mix the generator is sized for (20.6k for a 25k target). */
function syntheticCorpus(size: number): PeerCorpus {
  return {
    label: `synthetic ${size / 1000}k`,
    kind: 'synthetic',
    write: (dir) => writeCorpus(dir, { chunks: Math.round(size * MD_SCALE), seed: 42, markdownOnly: true }),
  };
}

async function runSize(
  ctx: BenchContext,
  peers: Peers,
  spec: PeerCorpus,
  queries: string[],
  passes: number,
  indexRepeats: number,
  compiled: CompiledCli,
): Promise<Record<string, unknown>> {
  const size = spec.label;
  const base = join(ctx.tmp, `peers-${spec.label.replace(/\W+/g, '-')}`);
  const dir = join(base, 'corpus');
  mkdirSync(dir, { recursive: true });
  const corpus = spec.write(dir);
  ctx.log(`   ${size}: ${corpus.files} Markdown files, ${(corpus.bytes / 2 ** 20).toFixed(1)} MB (${spec.kind} text)`);
  const home = join(base, 'cairn-home');
  const qmdDb = join(base, 'qmd', 'index.sqlite');
  mkdirSync(join(base, 'qmd'), { recursive: true });
  const loads: Record<string, number> = { before_indexing: load() };
  // Each tool indexes in a fresh process (its time to searchable and its own peak RSS), into a
  // fresh index each repeat. The order alternates (Cairn first, then qmd first): the corpus was
  // just written, and the first indexer also meets its writeback and a colder page cache.
  const cairnRuns: (IndexRun & { chunks: number; files: number })[] = [];
  const qmdRuns: (IndexRun & { documents: number })[] = [];
  for (let r = 0; r < indexRepeats; r++) {
    for (const tool of r % 2 === 0 ? ['cairn', 'qmd'] : ['qmd', 'cairn']) {
      if (tool === 'cairn') {
        rmSync(home, { recursive: true, force: true });
        cairnRuns.push(
          await runJson(
            process.execPath,
            [
              ...engineFlags(ctx.options),
              join(ctx.root, 'bench/peers/cairn-index.mjs'),
              compiled.engineModule,
              home,
              dir,
              JSON.stringify(QUIET_SETTINGS),
              queries[0],
            ],
            engineEnv(ctx.options, {}),
          ),
        );
        loads.after_cairn_indexing = load();
      } else {
        rmSync(join(base, 'qmd'), { recursive: true, force: true });
        mkdirSync(join(base, 'qmd'), { recursive: true });
        qmdRuns.push(await runJson(peers.node, [peers.child, 'index', peers.dir, qmdDb, dir, queries[0]]));
        loads.after_qmd_indexing = load();
      }
    }
  }
  const cairnIndex = { ...cairnRuns[cairnRuns.length - 1], ...medianRun(cairnRuns) };
  const qmdIndex = { ...qmdRuns[qmdRuns.length - 1], ...medianRun(qmdRuns) };
  ctx.log(
    `   ${size}: Cairn ${cairnIndex.chunks} chunks searchable in ${cairnRuns.map((r) => (r.ms / 1000).toFixed(1)).join(', ')} s (peak RSS ${cairnIndex.max_rss_mb.toFixed(0)} MB); qmd ${qmdIndex.documents} documents in ${qmdRuns.map((r) => (r.ms / 1000).toFixed(1)).join(', ')} s (peak RSS ${qmdIndex.max_rss_mb.toFixed(0)} MB)`,
  );

  const rows = join(base, 'chunks.jsonl');
  await runJson<{ rows: number }>(process.execPath, [
    '--import',
    'tsx',
    join(ctx.root, 'bench/peers/export-chunks.ts'),
    join(home, 'index'),
    rows,
  ]);
  const engine = await openBenchEngine(ctx.root, home, QUIET_SETTINGS);
  // As a person's engine has it a moment after its job: the engine runs this on its own debounce.
  await engine.runMaintenance();
  const maintainedAt = performance.now();
  const sizes = {
    cairn_mb: 0,
    /** Right after the pass: what it replaced is still kept for readers (the keep window). */
    cairn_in_window_mb: round(du(join(home, 'index')) / 2 ** 20, 1),
    qmd_mb: round(
      readdirSync(join(base, 'qmd'))
        .filter((n) => n.startsWith('index.sqlite'))
        .reduce((s, n) => s + du(join(base, 'qmd', n)), 0) /
        2 ** 20,
      1,
    ),
  };
  const ref = LineChild.start(peers.node, [peers.child, 'serve', peers.dir, qmdDb, rows]);
  const qmdMcp = LineChild.start(peers.node, [peers.child, 'mcp', peers.dir, qmdDb], {
    ...process.env,
    XDG_CACHE_HOME: join(base, 'qmd-cache'),
  });
  let server: Awaited<ReturnType<typeof startBenchServer>> | null = null;
  try {
    await ref.next<{ ready: boolean }>();
    const { port } = await qmdMcp.next<{ port: number }>();
    const qmdUrl = `http://127.0.0.1:${port}/mcp`;
    server = await startBenchServer(ctx.root, engine, home);
    const cairnUrl = server.mcpUrl;
    const args = { mode: 'sparse' as const, top_k: 10 };
    const qmdBody = (q: string, id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'query', arguments: { searches: [{ type: 'lex', query: q }], limit: 10, rerank: false } },
      });
    const ask = (q: string) =>
      ref.ask<{ qmd: { ms: number; hits: number }; fts5: { ms: number; hits: number } }>({
        q,
        tokens: analyzeQuery(q).split(' ').filter(Boolean),
      });
    for (const [i, q] of queries.slice(0, 20).entries()) {
      await engine.search({ query: q, ...args });
      await ask(q);
      await post(cairnUrl, searchCallBody(q, args, i + 1));
      await post(qmdUrl, qmdBody(q, i + 1));
    }
    loads.before_queries = load();
    const lat: Record<Tool, number[][]> = { cairn: [], qmd: [], fts5: [], cairn_mcp: [], qmd_mcp: [] };
    const zero = { cairn: 0, qmd: 0 };
    for (let p = 0; p < passes; p++) {
      const pass: Record<Tool, number[]> = { cairn: [], qmd: [], fts5: [], cairn_mcp: [], qmd_mcp: [] };
      for (const [i, q] of queries.entries()) {
        const t0 = performance.now();
        const r = await engine.search({ query: q, ...args });
        pass.cairn.push(performance.now() - t0);
        const refs = await ask(q);
        pass.qmd.push(refs.qmd.ms);
        pass.fts5.push(refs.fts5.ms);
        pass.cairn_mcp.push(await post(cairnUrl, searchCallBody(q, args, i + 1)));
        pass.qmd_mcp.push(await post(qmdUrl, qmdBody(q, i + 1)));
        if (p === 0) {
          if (r.hits.length === 0) zero.cairn++;
          if (refs.qmd.hits === 0) zero.qmd++;
        }
      }
      for (const t of TOOLS) lat[t].push(pass[t]);
      ctx.log(
        `   ${size} pass ${p + 1}/${passes}: p50 ${TOOLS.map((t) => `${t} ${percentile(pass[t], 50).toFixed(2)}`).join(', ')} ms (load ${load()})`,
      );
    }
    loads.after_queries = load();
    // The size as the engine settles it on its own: its second pass once the keep window has
    // passed (MaintenanceScheduler) deletes what the first one replaced. Run here so it is measured.
    const settle = DEFAULT_MAINTENANCE.keepVersionsMs + 3000 - (performance.now() - maintainedAt);
    if (settle > 0) await new Promise((r) => setTimeout(r, settle));
    await engine.runMaintenance();
    sizes.cairn_mb = round(du(join(home, 'index')) / 2 ** 20, 1);
    const s = Object.fromEntries(TOOLS.map((t) => [t, summarise(lat[t])])) as Record<
      Tool,
      { p50: number; p95: number }
    >;
    return {
      corpus: spec.label,
      text: spec.kind,
      chunks: cairnIndex.chunks,
      files: corpus.files,
      qmd_documents: qmdIndex.documents,
      queries: queries.length,
      passes,
      latency_ms: s,
      zero_hit_queries: zero,
      index: {
        cairn_s: round(cairnIndex.ms / 1000, 2),
        qmd_s: round(qmdIndex.ms / 1000, 2),
        cairn_runs_s: cairnRuns.map((r) => round(r.ms / 1000, 2)),
        qmd_runs_s: qmdRuns.map((r) => round(r.ms / 1000, 2)),
        cairn_peak_rss_mb: round(cairnIndex.max_rss_mb, 0),
        qmd_peak_rss_mb: round(qmdIndex.max_rss_mb, 0),
      },
      index_size: sizes,
      load_1m: loads,
    };
  } finally {
    ref.stop();
    qmdMcp.stop();
    await server?.close();
    await engine.close();
  }
}

const ratio = (a: number, b: number): number => round(a / b, 2);

function report(out: BenchOutput, figs: Record<string, unknown>[]): void {
  const rows: (string | number)[][] = [];
  const ratios: (string | number)[][] = [];
  for (const f of figs as {
    corpus: string;
    chunks: number;
    latency_ms: Record<Tool, { p50: number; p95: number }>;
    index: { cairn_s: number; qmd_s: number; cairn_peak_rss_mb: number; qmd_peak_rss_mb: number };
    index_size: { cairn_mb: number; qmd_mb: number };
    zero_hit_queries: { cairn: number; qmd: number };
  }[]) {
    const l = f.latency_ms;
    const label = `${f.corpus} (${Math.round(f.chunks / 1000)}k chunks)`;
    rows.push([
      label,
      `${l.cairn.p50} / ${l.cairn.p95}`,
      `${l.qmd.p50} / ${l.qmd.p95}`,
      `${l.fts5.p50} / ${l.fts5.p95}`,
      `${l.cairn_mcp.p50} / ${l.cairn_mcp.p95}`,
      `${l.qmd_mcp.p50} / ${l.qmd_mcp.p95}`,
      `${f.index.cairn_s} / ${f.index.qmd_s}`,
      `${f.index.cairn_peak_rss_mb} / ${f.index.qmd_peak_rss_mb}`,
      `${f.index_size.cairn_mb} / ${f.index_size.qmd_mb}`,
      `${f.zero_hit_queries.cairn} / ${f.zero_hit_queries.qmd}`,
    ]);
    const r = {
      inproc_p50: ratio(l.cairn.p50, l.qmd.p50),
      inproc_p95: ratio(l.cairn.p95, l.qmd.p95),
      mcp_p50: ratio(l.cairn_mcp.p50, l.qmd_mcp.p50),
      mcp_p95: ratio(l.cairn_mcp.p95, l.qmd_mcp.p95),
      searchable: ratio(f.index.cairn_s, f.index.qmd_s),
      rss: ratio(f.index.cairn_peak_rss_mb, f.index.qmd_peak_rss_mb),
      size: ratio(f.index_size.cairn_mb, f.index_size.qmd_mb),
      fts5_p50: ratio(l.cairn.p50, l.fts5.p50),
    };
    ratios.push([label, r.inproc_p50, r.inproc_p95, r.mcp_p50, r.mcp_p95, r.searchable, r.rss, r.size, r.fts5_p50]);
    const k = `${Math.round(f.chunks / 1000)}k`;
    out.targets.push(
      target(`qmd-inproc-p50-${k}`, `Cairn / qmd in-process p50 at ${k} chunks`, r.inproc_p50, '<=', 1, 'x'),
    );
    out.targets.push(
      target(`qmd-inproc-p95-${k}`, `Cairn / qmd in-process p95 at ${k} chunks`, r.inproc_p95, '<=', 1, 'x'),
    );
    out.targets.push(target(`qmd-mcp-p50-${k}`, `Cairn / qmd over MCP p50 at ${k} chunks`, r.mcp_p50, '<=', 1, 'x'));
    out.targets.push(target(`qmd-mcp-p95-${k}`, `Cairn / qmd over MCP p95 at ${k} chunks`, r.mcp_p95, '<=', 1, 'x'));
    out.targets.push(
      target(`qmd-searchable-${k}`, `Cairn / qmd time to searchable at ${k} chunks`, r.searchable, '<=', 1, 'x'),
    );
    out.targets.push(target(`qmd-rss-${k}`, `Cairn / qmd peak RSS while indexing at ${k} chunks`, r.rss, '<=', 1, 'x'));
    out.targets.push(target(`qmd-size-${k}`, `Cairn / qmd index size at ${k} chunks`, r.size, '<=', 1, 'x'));
    // Both of Cairn's calls run on the same engine in the same loop: their gap is what MCP over HTTP adds.
    out.targets.push(
      target(
        `mcp-overhead-${k}`,
        `Cairn over MCP minus in process, p50, at ${k} chunks`,
        round(l.cairn_mcp.p50 - l.cairn.p50, 2),
        '<=',
        3,
        'ms',
      ),
    );
    out.targets.push(
      target(`fts5-p50-${k}`, `Cairn sparse / FTS5 in-process p50 at ${k} chunks`, r.fts5_p50, '<=', 2, 'x'),
    );
  }
  out.tables.push({
    title: 'Cairn beside qmd and FTS5 (latency p50 / p95 in ms, medians over passes)',
    columns: [
      'corpus',
      'Cairn sparse',
      'qmd searchLex',
      'FTS5 top 200',
      'Cairn over MCP',
      'qmd over MCP',
      'searchable s (Cairn / qmd)',
      'peak RSS MB (Cairn / qmd)',
      'index MB (Cairn / qmd)',
      'zero-hit queries (Cairn / qmd)',
    ],
    rows,
  });
  out.tables.push({
    title: 'Ratios Cairn / reference (<= 1 is at least as good; FTS5 target <= 2)',
    columns: [
      'corpus',
      'in process p50',
      'in process p95',
      'MCP p50',
      'MCP p95',
      'time to searchable',
      'peak RSS',
      'index size',
      'Cairn / FTS5 p50',
    ],
    rows: ratios,
  });
}

export const peersBenchmark: Benchmark = {
  name: 'peers',
  description:
    'Cairn beside qmd (SQLite FTS5 BM25) and FTS5 itself: latency in process and over MCP, time to searchable, peak RSS, index size',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const peers = ensurePeers(ctx.root, ctx.log);
    const raw = ctx.options.get('peer-chunks');
    const passes = numberOption(ctx.options, 'repeats', ctx.quick ? 2 : 3);
    // Index runs per tool, alternating which goes first (see runSize).
    const indexRepeats = numberOption(ctx.options, 'index-repeats', ctx.quick ? 1 : 2);
    // Real prose when the shared test sets are there (and not in quick mode), else synthetic text.
    const prose = ['scifact', 'npl', 'cranfield', 'medline'];
    const real = !ctx.quick && !raw && prose.every((n) => missingSetFiles(ctx.datasets, n) === null);
    let specs: PeerCorpus[];
    let queries: string[];
    if (real) {
      const sets = prose.map((n) => loadSet(ctx.datasets, n));
      // The issue's sizes, 25k, 100k and 400k chunks, as shares of copies of the real corpus.
      const copies = ctx.options.has('peer-copies')
        ? listOption(ctx.options, 'peer-copies', []).map(Number)
        : [25_000, 100_000, 400_000].map((n) => Math.round((n / REAL_CHUNKS_PER_COPY) * 100) / 100);
      specs = copies.map((c) => realCorpus(sets, c, numberOption(ctx.options, 'peer-files', 0)));
      queries = sets.flatMap((x) => x.queries.map((q) => q.text)).slice(0, numberOption(ctx.options, 'queries', 600));
    } else {
      const sizes = raw
        ? raw
            .split(',')
            .map(Number)
            .filter((n) => Number.isInteger(n) && n > 0)
        : ctx.quick
          ? [2_000]
          : [25_000, 100_000, 400_000];
      specs = sizes.map(syntheticCorpus);
      queries = corpusQueries(numberOption(ctx.options, 'queries', ctx.quick ? 100 : 600), 11);
    }
    const figs: Record<string, unknown>[] = [];
    const compiled = buildCompiledCli(ctx.root, ctx.log);
    for (const spec of specs) figs.push(await runSize(ctx, peers, spec, queries, passes, indexRepeats, compiled));
    out.figures = {
      qmd: peers.qmdVersion,
      sqlite: peers.sqliteVersion,
      references_node: '22.23.3',
      cairn_node: process.version,
      sizes: figs,
    };
    report(out, figs);
    out.notes.push(
      `References: qmd ${peers.qmdVersion} and SQLite ${peers.sqliteVersion} FTS5 (better-sqlite3 from qmd's install) on Node 22.23.3, installed into ~/.cache/cairn-bench-refs; Cairn on ${process.version}. ${real ? "Corpus: the documents of the SciFact, NPL, Cranfield and MEDLINE test sets as Markdown files (real prose), copied N times for the larger sizes; queries: those sets' own queries." : 'Corpus: synthetic Markdown text (bench/corpus/synthetic.ts, markdownOnly), not real documents: its small vocabulary makes every query word common.'}`,
      "Cairn: mode sparse, top_k 10 (chunk BM25 + file BM25 fused, hits read with their text). qmd: searchLex limit 10 in process; MCP tool `query` with one lex search and rerank off. FTS5: top 200 chunks by bm25() over the same analysed chunk text as Cairn's chunk index (what one of Cairn's full-text queries does).",
      "Time to searchable and peak RSS: each tool indexes the folder in a fresh process (Cairn's engine compiled as the app ships it, with the app's malloc settings, Node flags and heap growth), into a fresh index, index-repeats times (2; 1 in quick mode) with the order alternating (Cairn then qmd, then qmd then Cairn), medians reported and every run recorded (index.cairn_runs_s, qmd_runs_s); each until its first query is answered (Cairn: the job done, its text searchable with no embedding, as qmd's update computes no vectors either, then a sparse search; qmd: update, then searchLex); Cairn's peak RSS also spans the maintenance pass its engine runs a moment after a job. Index size: Cairn's index folder once its maintenance settled (the second pass after the keep window deletes what the first replaced; index_size.cairn_in_window_mb is the folder right after the first pass), qmd's SQLite file (with WAL). Cairn's folder is a text-only one (no model loaded, no vectors): a normal folder runs the same text phase first and loads the model only for its vectors.",
    );
    return out;
  },
};
