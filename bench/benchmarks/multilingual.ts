/**
 * Multilingual retrieval (issue 13): the hand-written set of bench/quality/multilingual-set.ts
 * (de, fr, es, ru, zh, ja, ko, ar, with English distractors), indexed by the real engine with the
 * real model, searched per mode. Per language and query kind: hit@1, MRR@10, queries with no hit
 * at all (every query's text, or its base form, is in its answer document), and how often the
 * vector leg abstained.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchMode } from '../../main/common/search.js';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { indexFolderAndWait, openBenchEngine } from '../lib/engine.js';
import { emptyOutput, target } from '../lib/results.js';
import { round } from '../lib/stats.js';
import { docIdFromPath } from '../quality/docfiles.js';
import { ML_DOCS, ML_QUERIES, type QueryKind } from '../quality/multilingual-set.js';

const MODES: SearchMode[] = ['sparse', 'hybrid', 'tribrid'];

interface Cell {
  n: number;
  hit1: number;
  rr: number;
  zero: number;
  abstained: number;
}

export const multilingualBenchmark: Benchmark = {
  name: 'multilingual',
  description:
    'hit@1 and MRR@10 per language and query kind (exact, substring, inflected) on a hand-written 8-language set',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const dir = join(ctx.tmp, 'ml');
    mkdirSync(dir, { recursive: true });
    for (const d of ML_DOCS) writeFileSync(join(dir, `${d.id}.md`), `${d.text}\n`);
    const engine = await openBenchEngine(ctx.root, join(ctx.tmp, 'home'));
    const cells = new Map<string, Cell>();
    const cell = (k: string) =>
      cells.get(k) ?? (cells.set(k, { n: 0, hit1: 0, rr: 0, zero: 0, abstained: 0 }), cells.get(k)!);
    const failures: string[] = [];
    try {
      await indexFolderAndWait(engine, dir, { vectors: true });
      for (const mode of MODES) {
        for (const q of ML_QUERIES) {
          const res = await engine.search({ query: q.text, mode, top_k: 10, folders: [dir], per_file: true });
          const ids = res.hits.map((h) => docIdFromPath(h.path));
          const rank = ids.indexOf(q.answer) + 1;
          for (const key of [`${mode}|${q.lang}|${q.kind}`, `${mode}|${q.lang}|all`]) {
            const c = cell(key);
            c.n++;
            if (rank === 1) c.hit1++;
            if (rank > 0) c.rr += 1 / rank;
            if (res.hits.length === 0) c.zero++;
            if (res.legs_abstained?.some((a) => a.leg === 'vector')) c.abstained++;
          }
          if (rank !== 1)
            failures.push(
              `${mode} ${q.lang} ${q.kind} "${q.text}": answer at ${rank || 'none'} (top: ${ids.slice(0, 3).join(', ') || 'no hits'})`,
            );
        }
      }
    } finally {
      await engine.close();
    }
    const rows: (string | number)[][] = [];
    for (const [key, c] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
      const [mode, lang, kind] = key.split('|');
      rows.push([mode, lang, kind, c.n, round(c.hit1 / c.n, 3), round(c.rr / c.n, 3), c.zero, c.abstained]);
    }
    out.tables.push({
      title: 'Multilingual: per mode, language and query kind',
      columns: ['mode', 'lang', 'kind', 'queries', 'hit@1', 'MRR@10', 'zero-hit', 'vector abstained'],
      rows,
    });
    out.figures = {
      docs: ML_DOCS.length,
      queries: ML_QUERIES.length,
      cells: Object.fromEntries(
        [...cells].map(([k, c]) => [k, { ...c, hit1: round(c.hit1 / c.n, 4), mrr10: round(c.rr / c.n, 4) }]),
      ),
      failures,
    };
    const langs = [...new Set(ML_QUERIES.map((q) => q.lang))];
    const kinds: QueryKind[] = ['exact', 'substring'];
    for (const lang of langs) {
      // hit@1 >= 0.9 for exact words and substrings in every language, in the default-like modes.
      const pool = ML_QUERIES.filter((q) => q.lang === lang && kinds.includes(q.kind));
      if (pool.length === 0) continue;
      for (const mode of ['sparse', 'hybrid'] as const) {
        const hits = kinds.reduce((s, k) => s + (cells.get(`${mode}|${lang}|${k}`)?.hit1 ?? 0), 0);
        out.targets.push(
          target(
            `ml-${mode}-${lang}-hit1`,
            `${lang} ${mode}: hit@1 on exact words and substrings`,
            hits / pool.length,
            '>=',
            0.9,
          ),
        );
      }
    }
    const zero = [...cells].filter(([k]) => k.endsWith('|all')).reduce((s, [, c]) => s + c.zero, 0);
    out.targets.push(
      target('ml-zero-hit', 'queries with no hit (every answer contains the query or its base form)', zero, '<=', 0),
    );
    if (failures.length) out.notes.push(`Not first: ${failures.join('; ')}`);
    return out;
  },
};
