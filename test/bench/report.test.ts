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
  name: 'quality',
  status: 'ok',
  date: '2026-11-29T23:00:00.000Z',
  commit: 'abc',
  quick: false,
  duration_s: 1,
  machine,
  args: [],
  figures: {
    runs: [
      { set: 'scifact', mode: 'sparse', variant: '', ndcg10: 0.67, recall100: 0.9, mrr10: 0.6 },
      { set: 'scifact', mode: 'hybrid', variant: '', ndcg10: 0.69, recall100: 0.92, mrr10: 0.62 },
    ],
  },
  targets: [target('scifact-sparse', 'SciFact sparse', 0.67, '>=', 0.665)],
  tables: [{ title: 'scifact', columns: ['a', 'b'], rows: [['x|y', 0.5]] }],
  charts: [
    {
      id: 'ndcg',
      title: 'nDCG <10>',
      unit: '',
      bars: [
        { label: 'sparse', value: 0.67 },
        { label: 'BM25', value: 0.665, reference: true },
      ],
    },
  ],
  notes: ['a note'],
};
const skipped: ResultFile = {
  name: 'grep',
  status: 'skipped',
  reason: 'rg missing',
  date: '2026-11-29T23:00:00.000Z',
  commit: 'abc',
  quick: true,
  duration_s: 0,
  machine,
  args: [],
};

test('the README table is rewritten only between its markers', () => {
  const body = headlineMarkdown([quality, skipped]);
  assert.match(body, /\| scifact \| 0\.6650 \| 0\.6700 \| 0\.6900 \| abc \(2026-11-29\) \|/);
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

test('the README table takes each set from the newest full run that fused it, naming its commit', () => {
  const run = (
    name: string,
    date: string,
    commit: string,
    rows: { set: string; mode: string; variant?: string; ndcg10: number }[],
  ): ResultFile => ({
    ...quality,
    name,
    date,
    commit,
    targets: [],
    figures: { runs: rows.map((r) => ({ variant: '', ...r })) },
  });
  const old = run('quality', '2026-11-29T00:00:00.000Z', 'old', [
    { set: 'scifact', mode: 'hybrid', ndcg10: 0.69 },
    { set: 'cranfield', mode: 'hybrid', ndcg10: 0.37 },
  ]);
  const prose = run('quality-prose', '2026-12-01T00:00:00.000Z', 'new', [
    { set: 'cranfield', mode: 'sparse', ndcg10: 0.38 },
    { set: 'cranfield', mode: 'hybrid', ndcg10: 0.39 },
  ]);
  const sparseOnly = run('quality-sparse', '2026-12-02T00:00:00.000Z', 'newer', [
    { set: 'scifact', mode: 'sparse', ndcg10: 0.7 },
  ]);
  const sweep = run('quality-sweep', '2026-12-03T00:00:00.000Z', 'sweep', [
    { set: 'cranfield', mode: 'hybrid', variant: 'search.vector_weight=0', ndcg10: 0.1 },
  ]);
  const quick = {
    ...run('quality-quick', '2026-12-03T00:00:00.000Z', 'quick', [{ set: 'cranfield', mode: 'hybrid', ndcg10: 0.2 }]),
    quick: true,
  };
  const body = headlineMarkdown([old, prose, sparseOnly, sweep, quick]);
  assert.match(body, /\| cranfield \| 0\.3518 \| 0\.3800 \| 0\.3900 \| new \(2026-12-01\) \|/);
  assert.match(body, /\| scifact \| 0\.6650 \| n\/a \| 0\.6900 \| old \(2026-11-29\) \|/);
  // Control: with only the old run, cranfield comes from it.
  assert.match(headlineMarkdown([old]), /\| cranfield \| 0\.3518 \| 0\.3700 \| old \(2026-11-29\) \|/);
});

test('the report is regenerated from results files, with escaped tables and SVG charts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
  try {
    writeResult(dir, quality);
    writeResult(dir, skipped);
    writeFileSync(join(dir, 'broken.json'), '{');
    const { results, unreadable } = readResults(dir);
    assert.deepEqual(
      results.map((r) => r.name),
      ['grep', 'quality'],
    );
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
  const svg = barChartSvg({
    id: 'x',
    title: 't',
    unit: 'ms',
    bars: [
      { label: 'zero', value: 0 },
      { label: 'nan', value: Number.NaN },
    ],
  });
  assert.equal((svg.match(/<rect /g) ?? []).length, 3);
});
