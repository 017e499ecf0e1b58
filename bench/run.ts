/**
 * `npm run bench [-- name… --quick]`: runs the named benchmarks (default: all), writes
 * `bench/results/<name>.json` for each, then regenerates `bench/REPORT.md`, its SVG charts and the
 * README's headline table from every results file. `npm run bench -- report` only regenerates.
 * A benchmark whose prerequisite is missing is recorded as skipped; a real error fails the run.
 */
import './lib/env.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from './lib/args.js';
import { PartialFailure, SkipError, type BenchContext } from './lib/benchmark.js';
import { gitCommit, machineInfo } from './lib/machine.js';
import { readResults, writeResult, type ResultFile } from './lib/results.js';
import { renderReport } from './report/markdown.js';
import { updateReadme } from './report/readme.js';
import { BENCHMARKS } from './benchmarks/index.js';

const root = resolve(new URL('..', import.meta.url).pathname);
const resultsDir = join(root, 'bench/results');

const USAGE = `usage: npm run bench -- [name…] [--quick] [options]
benchmarks: ${BENCHMARKS.map((b) => b.name).join(', ')}; "report" only regenerates REPORT.md
options: --quick  small version of each benchmark (CI)
         --no-report  do not rewrite REPORT.md / README
         --keep-tmp  keep the temporary folders
         --as NAME   write bench/results/NAME.json (one benchmark only), e.g. for a sweep
         quality: --sets a,b --modes m,n --top-k N --queries N --docs N (quick subset) --model ID
                  --setting k=v,k2=v2 --sweep 'search.vector_weight=0,0.1,0.2;search.rrf_k=20,60'
                  --reuse-index (keep the indexed sets in bench/.cache/quality for tuning runs)
         code-search: --modes m,n --queries N (per language x kind) --split tune|held-out
                  --setting k=v --sweep 'search.vector_weight_code=0,0.1' --reuse-index (bench/.cache/code-search)
         latency, vector-recall, mcp, startup: --fixture-chunks N[,M] --queries N --repeats N
         latency: --scale-chunks N (scaling point, synthetic text and vectors; default 1000000, 0: none)
         peers: --peer-copies 0.6,2.4 (shares of the real prose corpus) --peer-files N (grouped into N files) --peer-chunks N (synthetic) --repeats N --index-repeats N
         mcp: --duration S   indexing: --chunks N --repeats N --text-only 1 (no end-to-end/raw runs)
         freshness: --repeats N
         soak: --duration S --edit-ms N --chunks N --text-only 1`;

/** REPORT.md always; the README's table only from full runs, so a quick CI run never replaces it. */
function regenerate(quick: boolean): void {
  const { results, unreadable } = readResults(resultsDir);
  writeFileSync(join(root, 'bench/REPORT.md'), renderReport(results, resultsDir, unreadable));
  let readme: string;
  if (quick) readme = 'left alone (quick run)';
  else {
    const r = updateReadme(
      join(root, 'README.md'),
      results.filter((x) => !x.quick),
    );
    readme = r === 'no-markers' ? 'has no <!-- bench:start --> / <!-- bench:end --> markers: table skipped' : r;
  }
  console.log(`report: bench/REPORT.md rewritten from ${results.length} results files; README ${readme}`);
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (args.options.has('help')) {
    console.log(USAGE);
    return 0;
  }
  if (args.names.length === 1 && args.names[0] === 'report') {
    regenerate(false);
    return 0;
  }
  const unknown = args.names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}\n${USAGE}`);
    return 2;
  }
  const selected = args.names.length ? BENCHMARKS.filter((b) => args.names.includes(b.name)) : BENCHMARKS;
  const commit = gitCommit(root);
  let failed = 0;
  for (const bench of selected) {
    const started = Date.now();
    const tmp = mkdtempSync(join(tmpdir(), `cairn-bench-${bench.name}-`));
    const ctx: BenchContext = {
      quick: args.quick,
      root,
      datasets: resolve(root, '../shared/datasets'),
      tmp,
      options: args.options,
      log: (line) => console.log(line),
    };
    // --as NAME stores a variant run (e.g. a fusion sweep) beside the main results, not over them.
    const name = selected.length === 1 ? (args.options.get('as') ?? bench.name) : bench.name;
    const base = {
      name,
      date: new Date().toISOString(),
      commit,
      quick: args.quick,
      machine: machineInfo(),
      args: process.argv.slice(2),
    };
    console.log(`\n== ${bench.name}${args.quick ? ' (quick)' : ''}: ${bench.description}`);
    let result: ResultFile;
    try {
      const out = await bench.run(ctx);
      result = { ...base, status: 'ok', duration_s: (Date.now() - started) / 1000, ...out };
      for (const t of out.targets)
        console.log(
          `   ${t.met ? 'met   ' : 'MISSED'} ${t.description}: ${t.measured} ${t.unit} (limit ${t.op} ${t.limit}, ratio ${t.ratio})`,
        );
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (err instanceof SkipError) {
        console.log(`   skipped: ${reason}`);
        result = { ...base, status: 'skipped', reason, duration_s: (Date.now() - started) / 1000 };
      } else {
        failed++;
        console.error(`   FAILED: ${err instanceof Error ? (err.stack ?? reason) : reason}`);
        const partial = err instanceof PartialFailure ? err.output : {};
        result = { ...base, status: 'failed', reason, duration_s: (Date.now() - started) / 1000, ...partial };
      }
    } finally {
      if (!args.options.has('keep-tmp')) rmSync(tmp, { recursive: true, force: true });
    }
    console.log(`   → ${writeResult(resultsDir, result)} (${result.duration_s.toFixed(1)} s)`);
  }
  if (!args.options.has('no-report')) regenerate(args.quick);
  return failed ? 1 : 0;
}

// Exit explicitly: an engine that leaves a watcher or worker running must not hang CI.
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
