/**
 * The README's headline table, rewritten between `<!-- bench:start -->` and `<!-- bench:end -->`
 * from the latest results files, so the README never shows figures nobody measured.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ResultFile } from '../lib/results.js';
import { fmtNum, mdTable } from './markdown.js';
import { bm25Reference } from '../quality/published.js';
import { QUALITY_SETS } from '../quality/datasets.js';

export const START = '<!-- bench:start -->';
export const END = '<!-- bench:end -->';

interface QualityRow {
  set: string;
  mode: string;
  variant?: string;
  ndcg10: number;
}

const FUSED = ['hybrid', 'tribrid'];

/**
 * Per set, the newest full run of the quality benchmark (`quality`, or a `--as quality-…` run
 * with default settings) that measured the fused modes there, else the newest with any mode: a
 * re-run of some sets (embedding them all takes hours on two cores) updates their rows only, and
 * every row says which commit it comes from. Each row's modes come from that one run, so hybrid
 * and sparse are compared within a commit.
 */
function qualityRowsPerSet(results: readonly ResultFile[]): { set: string; file: ResultFile; rows: QualityRow[] }[] {
  const runs = results
    .filter((r) => (r.name === 'quality' || r.name.startsWith('quality-')) && r.status === 'ok' && !r.quick)
    .map((file) => ({ file, rows: ((file.figures?.runs as QualityRow[] | undefined) ?? []).filter((x) => !x.variant) }))
    .filter((r) => r.rows.length > 0)
    .sort((a, b) => b.file.date.localeCompare(a.file.date));
  const place = (set: string) => (QUALITY_SETS as readonly string[]).indexOf(set) + 1 || 99;
  const sets = [...new Set(runs.flatMap((r) => r.rows.map((x) => x.set)))].sort((a, b) => place(a) - place(b));
  return sets.map((set) => {
    const has = runs.filter((r) => r.rows.some((x) => x.set === set));
    const best = has.find((r) => r.rows.some((x) => x.set === set && FUSED.includes(x.mode))) ?? has[0];
    return { set, file: best.file, rows: best.rows.filter((x) => x.set === set) };
  });
}

export function headlineMarkdown(results: readonly ResultFile[]): string {
  const parts: string[] = [];
  const perSet = qualityRowsPerSet(results);
  if (perSet.length) {
    const modes = ['vector', 'sparse', 'hybrid', 'tribrid'].filter((m) =>
      perSet.some((p) => p.rows.some((r) => r.mode === m)),
    );
    parts.push(
      "nDCG@10 per mode on the full sets, beside BM25: BEIR's published figure for SciFact, and for the other sets the reference BM25 run (k1 0.9, b 0.4) that each set's SOURCE.md records (they have no comparable published figure). Each row is one run of `npm run bench:quality`, at the commit it names:",
      '',
      mdTable(
        ['set', 'BM25', ...modes, 'measured at'],
        perSet.map(({ set, file, rows }) => [
          set,
          bm25Reference(set) ?? 'n/a',
          ...modes.map((m) => rows.find((r) => r.mode === m)?.ndcg10 ?? 'n/a'),
          `${file.commit} (${file.date.slice(0, 10)})`,
        ]),
      ),
      '',
    );
  }
  const targets = results.flatMap((r) =>
    (r.targets ?? []).map((t) => [
      r.name,
      t.description,
      `${fmtNum(t.measured)} ${t.unit}`.trim(),
      `${t.op} ${fmtNum(t.limit)} ${t.unit}`.trim(),
      t.met ? 'met' : 'missed',
    ]),
  );
  if (targets.length) parts.push(mdTable(['benchmark', 'target', 'measured', 'limit', ''], targets), '');
  const cut = (t: string): string => (t.length > 120 ? `${t.slice(0, 117)}…` : t);
  const skipped = results
    .filter((r) => r.status !== 'ok')
    .map((r) => `${r.name} (${r.status}${r.reason ? `: ${cut(r.reason)}` : ''})`);
  if (skipped.length) parts.push(`Not measured in the latest run: ${skipped.join('; ')}.`, '');
  parts.push('Full report: [bench/REPORT.md](bench/REPORT.md).');
  return parts.join('\n');
}

/** Replaces the text between the markers; returns null (and writes nothing) if they are absent. */
export function replaceBetweenMarkers(text: string, body: string): string | null {
  const a = text.indexOf(START);
  const b = text.indexOf(END, a + START.length);
  if (a < 0 || b < 0) return null;
  return `${text.slice(0, a + START.length)}\n${body}\n${text.slice(b)}`;
}

export function updateReadme(
  readmePath: string,
  results: readonly ResultFile[],
): 'updated' | 'unchanged' | 'no-readme' | 'no-markers' {
  if (!existsSync(readmePath)) return 'no-readme';
  const text = readFileSync(readmePath, 'utf8');
  const next = replaceBetweenMarkers(text, headlineMarkdown(results));
  if (next === null) return 'no-markers';
  if (next === text) return 'unchanged';
  writeFileSync(readmePath, next);
  return 'updated';
}
