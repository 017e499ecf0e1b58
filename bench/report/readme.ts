/**
 * The README's headline table, rewritten between `<!-- bench:start -->` and `<!-- bench:end -->`
 * from the latest results files, so the README never shows figures nobody measured.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ResultFile } from '../lib/results.js';
import { fmtNum, mdTable } from './markdown.js';
import { bm25Reference } from '../quality/published.js';

export const START = '<!-- bench:start -->';
export const END = '<!-- bench:end -->';

interface QualityRow {
  set: string;
  mode: string;
  ndcg10: number;
}

export function headlineMarkdown(results: readonly ResultFile[]): string {
  const parts: string[] = [];
  const quality = results.find((r) => r.name === 'quality' && r.status === 'ok');
  const rows = (quality?.figures?.runs as QualityRow[] | undefined) ?? [];
  if (rows.length) {
    const sets = [...new Set(rows.map((r) => r.set))];
    const modes = [...new Set(rows.map((r) => r.mode))];
    parts.push(
      `nDCG@10 per mode (${quality?.quick ? 'quick subset' : 'full sets'}, ${quality?.commit}), beside BM25: BEIR's published figure for SciFact, and for the other sets the reference BM25 run (k1 0.9, b 0.4) that each set's SOURCE.md records (they have no comparable published figure):`,
      '',
      mdTable(
        ['set', 'BM25', ...modes],
        sets.map((s) => [s, bm25Reference(s) ?? 'n/a', ...modes.map((m) => rows.find((r) => r.set === s && r.mode === m)?.ndcg10 ?? 'n/a')]),
      ),
      '',
    );
  }
  const targets = results.flatMap((r) => (r.targets ?? []).map((t) => [r.name, t.description, `${fmtNum(t.measured)} ${t.unit}`.trim(), `${t.op} ${fmtNum(t.limit)} ${t.unit}`.trim(), t.met ? 'met' : 'missed']));
  if (targets.length) parts.push(mdTable(['benchmark', 'target', 'measured', 'limit', ''], targets), '');
  const cut = (t: string): string => (t.length > 120 ? `${t.slice(0, 117)}…` : t);
  const skipped = results.filter((r) => r.status !== 'ok').map((r) => `${r.name} (${r.status}${r.reason ? `: ${cut(r.reason)}` : ''})`);
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

export function updateReadme(readmePath: string, results: readonly ResultFile[]): 'updated' | 'unchanged' | 'no-readme' | 'no-markers' {
  if (!existsSync(readmePath)) return 'no-readme';
  const text = readFileSync(readmePath, 'utf8');
  const next = replaceBetweenMarkers(text, headlineMarkdown(results));
  if (next === null) return 'no-markers';
  if (next === text) return 'unchanged';
  writeFileSync(readmePath, next);
  return 'updated';
}
