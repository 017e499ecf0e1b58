import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, spread } from '../../bench/lib/stats.js';
import { target } from '../../bench/lib/results.js';

test('percentiles interpolate linearly between order statistics', () => {
  assert.equal(percentile([1, 2, 3, 4, 5], 50), 3);
  assert.equal(percentile([4, 1, 3, 2], 50), 2.5);
  assert.ok(
    Math.abs(
      percentile(
        Array.from({ length: 101 }, (_, i) => i),
        95,
      ) - 95,
    ) < 1e-9,
  );
  assert.ok(Number.isNaN(percentile([], 50)));
});

test('a spread reports median, p95 and min-max', () => {
  const s = spread([5, 1, 9, 3, 7]);
  assert.deepEqual([s.n, s.median, s.min, s.max, s.mean], [5, 5, 1, 9, 5]);
  assert.ok(Math.abs(s.p95 - 8.6) < 1e-9);
});

test('targets record met or missed and the measured ratio', () => {
  const upper = target('t', 'latency', 12, '<=', 15, 'ms');
  assert.equal(upper.met, true);
  assert.equal(upper.ratio, 0.8);
  assert.equal(target('t', 'nDCG', 0.6, '>=', 0.665).met, false);
  assert.equal(target('t', 'nan', Number.NaN, '<=', 1).met, false);
});

test('quality targets follow issue 6: sparse vs BM25, fused modes vs sparse', async () => {
  const { qualityTargets } = await import('../../bench/quality/summary.js');
  const row = (set: string, mode: string, ndcg10: number) => ({
    set,
    mode,
    variant: '',
    ndcg10,
    recall100: 0,
    mrr10: 0,
    queries: 1,
    p50_ms: 0,
    p95_ms: 0,
  });
  const t = qualityTargets([
    row('scifact', 'sparse', 0.67),
    row('scifact', 'hybrid', 0.664),
    row('cranfield', 'sparse', 0.36),
    row('cranfield', 'hybrid', 0.3596),
  ]);
  const byId = new Map(t.map((x) => [x.id, x.met]));
  assert.equal(byId.get('scifact-sparse'), true);
  assert.equal(byId.get('scifact-best'), false);
  assert.equal(byId.get('scifact-hybrid-floor'), false);
  assert.equal(byId.get('cranfield-hybrid-floor'), true);
  assert.equal(byId.get('cranfield-hybrid-gain'), false);
  assert.equal(byId.has('scifact-hybrid-gain'), false);
});
