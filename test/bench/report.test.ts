// Report writing from results files: the README table between markers, Markdown tables, SVG charts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { headlineMarkdown, replaceBetweenMarkers, updateReadme } from '../../bench/report/readme.js';
import { mdTable, renderReport } from '../../bench/report/markdown.js';
import { barChartSvg } from '../../bench/report/svg.js';
import { readResults, target, writeResult, type ResultFile } from '../../bench/lib/results.js';

const machine = { cpu: 'test cpu', cores: 2, memory_gb: 4, platform: 'linux', arch: 'x64', node: 'v20', load_1m: 0 };
const quality: ResultFile = {
  name: 'quality', status: 'ok', date: '2026-11-29T23:00:00.000Z', commit: 'abc', quick: false, duration_s: 1, machine, args: [],
  figures: { runs: [{ set: 'scifact', mode: 'sparse', variant: '', ndcg10: 0.67, recall100: 0.9, mrr10: 0.6 }, { set: 'scifact', mode: 'hybrid', variant: '', ndcg10: 0.69, recall100: 0.92, mrr10: 0.62 }] },
  targets: [target('scifact-sparse', 'SciFact sparse', 0.67, '>=', 0.665)],
  tables: [{ title: 'scifact', columns: ['a', 'b'], rows: [['x|y', 0.5]] }],
  charts: [{ id: 'ndcg', title: 'nDCG <10>', unit: '', bars: [{ label: 'sparse', value: 0.67 }, { label: 'BM25', value: 0.665, reference: true }] }],
  notes: ['a note'],
};
const skipped: ResultFile = { name: 'grep', status: 'skipped', reason: 'rg missing', date: '2026-11-29T23:00:00.000Z', commit: 'abc', quick: true, duration_s: 0, machine, args: [] };

test('the README table is rewritten only between its markers', () => {
  const body = headlineMarkdown([quality, skipped]);
  assert.match(body, /\| scifact \| 0\.6650 \| 0\.6700 \| 0\.6900 \|/);
  assert.match(body, /grep \(skipped: rg missing\)/);
  const text = 'intro\n<!-- bench:start -->\nold\n<!-- bench:end -->\noutro\n';
  const next = replaceBetweenMarkers(text, 'NEW');
  assert.equal(next, 'intro\n<!-- bench:start -->\nNEW\n<!-- bench:end -->\noutro\n');
  assert.equal(replaceBetweenMarkers('no markers here', 'NEW'), null);
  const dir = mkdtempSync(join(tmpdir(), 'bench-readme-'));
  try {
    writeFileSync(join(dir, 'README.md'), 'no markers');
    assert.equal(updateReadme(join(dir, 'README.md'), [quality]), 'no-markers');
    assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), 'no markers');
    assert.equal(updateReadme(join(dir, 'absent.md'), [quality]), 'no-readme');
    writeFileSync(join(dir, 'README.md'), text);
    assert.equal(updateReadme(join(dir, 'README.md'), [quality]), 'updated');
    assert.match(readFileSync(join(dir, 'README.md'), 'utf8'), /outro/);
    assert.equal(updateReadme(join(dir, 'README.md'), [quality]), 'unchanged');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the report is regenerated from results files, with escaped tables and SVG charts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
  try {
    writeResult(dir, quality);
    writeResult(dir, skipped);
    writeFileSync(join(dir, 'broken.json'), '{');
    const { results, unreadable } = readResults(dir);
    assert.deepEqual(results.map((r) => r.name), ['grep', 'quality']);
    assert.deepEqual(unreadable, ['broken.json']);
    const md = renderReport(results, dir, unreadable);
    assert.match(md, /\| grep \| skipped: rg missing \|/);
    assert.match(md, /x\\\|y/);
    assert.match(md, /!\[nDCG <10>\]\(results\/quality-ndcg\.svg\)/);
    assert.ok(readdirSync(dir).includes('quality-ndcg.svg'));
    const svg = readFileSync(join(dir, 'quality-ndcg.svg'), 'utf8');
    assert.match(svg, /^<svg xmlns/);
    assert.match(svg, /nDCG &lt;10&gt;/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tables and charts handle odd values', () => {
  assert.equal(mdTable(['a'], [[Number.NaN]]), '| a |\n| --- |\n| n/a |');
  const svg = barChartSvg({ id: 'x', title: 't', unit: 'ms', bars: [{ label: 'zero', value: 0 }, { label: 'nan', value: Number.NaN }] });
  assert.equal((svg.match(/<rect /g) ?? []).length, 3);
});
