/**
 * Code search (issue 13): the CodeSearchNet-style set of bench/quality/code-set.ts (real Python and
 * JavaScript from node_modules, docstrings removed from the indexed copy), indexed by the real
 * engine. A hit is right when it is in the answer's file and overlaps the function's lines.
 * MRR@10 and R@10 per mode, language and query kind (docstring, identifier, split words).
 * `--modes sparse` skips embedding; `--queries N` caps each language × kind group (evenly spaced).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SEARCH_MODES, type SearchMode } from '../../main/common/search.js';
import { listOption, numberOption } from '../lib/args.js';
import { SkipError, type BenchContext, type Benchmark } from '../lib/benchmark.js';
import { indexFolderAndWait, openBenchEngine } from '../lib/engine.js';
import { emptyOutput, target } from '../lib/results.js';
import { round } from '../lib/stats.js';
import { buildCodeSet, type CodeQuery } from '../quality/code-set.js';

interface Cell {
  n: number;
  rr: number;
  r10: number;
}

function evenly<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}

export const codeSearchBenchmark: Benchmark = {
  name: 'code-search',
  description: 'MRR@10 and R@10 per mode, language and query kind on a CodeSearchNet-style set built from node_modules',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const set = buildCodeSet(join(ctx.root, 'node_modules'));
    if (!set) throw new SkipError('none of the source packages of the code set is installed');
    const modes = listOption(ctx.options, 'modes', ['sparse', 'hybrid', 'tribrid']) as SearchMode[];
    if (modes.some((m) => !SEARCH_MODES.includes(m))) throw new Error(`unknown mode in ${modes.join(',')}`);
    const cap = numberOption(ctx.options, 'queries', ctx.quick ? 40 : 250);
    const groups = new Map<string, CodeQuery[]>();
    for (const q of set.queries) groups.set(`${q.lang}|${q.kind}`, [...(groups.get(`${q.lang}|${q.kind}`) ?? []), q]);
    const queries = [...groups.values()].flatMap((g) => evenly(g, cap));
    const dir = join(ctx.tmp, 'code');
    for (const f of set.files) {
      mkdirSync(dirname(join(dir, f.rel)), { recursive: true });
      writeFileSync(join(dir, f.rel), f.text);
    }
    const engine = await openBenchEngine(ctx.root, join(ctx.tmp, 'home'));
    const cells = new Map<string, Cell>();
    let chunks = 0;
    const misses: string[] = [];
    try {
      const counts = await indexFolderAndWait(engine, dir, { vectors: modes.some((m) => m !== 'sparse'), onProgress: ctx.log });
      await engine.runMaintenance();
      chunks = counts.chunks;
      ctx.log(`   ${set.files.length} files → ${counts.chunks} chunks; ${queries.length} of ${set.queries.length} queries`);
      for (const mode of modes) {
        for (const q of queries) {
          const res = await engine.search({ query: q.text, mode, top_k: 10, folders: [dir] });
          const rank = res.hits.findIndex((h) => h.path === join(dir, q.rel) && h.start_line <= q.endLine && h.end_line >= q.startLine) + 1;
          if (rank !== 1 && q.kind === 'identifier' && misses.length < 60) misses.push(`${mode} ${q.text} (${q.rel}:${q.startLine}) at ${rank || '>10'}; top ${res.hits[0] ? `${res.hits[0].path.slice(dir.length + 1)}:${res.hits[0].start_line}` : 'none'}`);
          for (const key of [`${mode}|${q.lang}|${q.kind}`, `${mode}|all|${q.kind}`]) {
            const c = cells.get(key) ?? { n: 0, rr: 0, r10: 0 };
            c.n++;
            if (rank > 0) {
              c.rr += 1 / rank;
              c.r10++;
            }
            cells.set(key, c);
          }
        }
        for (const lang of ['python', 'javascript', 'all']) {
          const line = (['docstring', 'identifier', 'split'] as const).map((k) => {
            const c = cells.get(`${mode}|${lang}|${k}`);
            return c ? `${k} ${(c.rr / c.n).toFixed(3)}/${(c.r10 / c.n).toFixed(3)}` : '';
          });
          ctx.log(`   ${mode.padEnd(8)} ${lang.padEnd(10)} MRR@10/R@10: ${line.join('  ')}`);
        }
      }
    } finally {
      await engine.close();
    }
    const rows = [...cells].sort(([a], [b]) => a.localeCompare(b)).map(([key, c]) => [...key.split('|'), c.n, round(c.rr / c.n, 4), round(c.r10 / c.n, 4)]);
    out.tables.push({ title: 'Code search: MRR@10 and R@10', columns: ['mode', 'language', 'kind', 'queries', 'MRR@10', 'R@10'], rows });
    out.figures = { files: set.files.length, chunks, queries_total: set.queries.length, queries_run: queries.length, identifier_misses: misses, cells: Object.fromEntries([...cells].map(([k, c]) => [k, { n: c.n, mrr10: round(c.rr / c.n, 4), r10: round(c.r10 / c.n, 4) }])) };
    const mrr = (mode: string, lang: string, kind: string) => {
      const c = cells.get(`${mode}|${lang}|${kind}`);
      return c ? c.rr / c.n : Number.NaN;
    };
    if (cells.has('sparse|all|docstring')) out.targets.push(target('code-sparse-docstring', 'sparse docstring-query MRR@10', mrr('sparse', 'all', 'docstring'), '>=', 0.3));
    for (const mode of modes.filter((m) => m !== 'sparse' && m !== 'vector')) {
      for (const lang of ['python', 'javascript']) {
        for (const kind of ['docstring', 'identifier', 'split']) {
          const s = mrr('sparse', lang, kind);
          if (Number.isFinite(s)) out.targets.push(target(`code-${mode}-${lang}-${kind}-floor`, `${lang} ${kind}: ${mode} MRR@10 not below sparse (${round(s, 4)})`, mrr(mode, lang, kind), '>=', round(s, 4)));
        }
      }
    }
    const dflt = modes.includes('tribrid') ? 'tribrid' : modes[0];
    out.targets.push(target('code-identifier-default', `identifier-query MRR@10 in ${dflt} (the default mode is tribrid)`, mrr(dflt, 'all', 'identifier'), '>=', 0.95));
    return out;
  },
};
