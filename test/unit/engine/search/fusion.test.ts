// Unit: fusion of the legs' ranked lists (main/engine/search/fusion.ts), without an index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convexMix, single, weightedRrf, type LegResult } from '../../../../main/engine/search/fusion.js';

const leg = (
  name: LegResult['leg'],
  weight: number,
  ids: string[],
  scores = ids.map((_, i) => ids.length - i),
): LegResult => ({ leg: name, weight, ids, scores });

test('RRF: rank 1 in every leg scores exactly 1, and a chunk in both legs beats one in either', () => {
  const fused = weightedRrf([leg('sparse', 1, ['a', 'b', 'c']), leg('vector', 0.5, ['a', 'c', 'd'])], 60);
  assert.deepEqual(
    fused.map((f) => f.id),
    ['a', 'c', 'b', 'd'],
  );
  assert.equal(fused[0].score, 1);
  assert.deepEqual(fused[0].ranks, { sparse: 1, vector: 1 });
  assert.deepEqual(fused.find((f) => f.id === 'c')?.ranks, { sparse: 3, vector: 2 });
  for (const f of fused) assert.ok(f.score > 0 && f.score <= 1, `${f.id} ${f.score}`);
  // Control: with the vector leg's weight raised, its own order wins over the sparse leg's.
  const tilted = weightedRrf([leg('sparse', 1, ['b', 'x']), leg('vector', 5, ['x', 'b'])], 60);
  assert.equal(tilted[0].id, 'x');
});

test('RRF: equal scores are ordered by id, so fusion is deterministic', () => {
  const a = weightedRrf([leg('sparse', 1, ['q', 'p']), leg('vector', 1, ['p', 'q'])], 60);
  assert.equal(a[0].score, a[1].score);
  assert.deepEqual(
    a.map((f) => f.id),
    ['p', 'q'],
  );
});

test('RRF: k flattens the rank curve (a larger k brings rank 2 closer to rank 1)', () => {
  const ratio = (k: number) => {
    const f = weightedRrf([leg('sparse', 1, ['a', 'b'])], k);
    return f[1].score / f[0].score;
  };
  assert.ok(ratio(60) > ratio(1), `${ratio(60)} vs ${ratio(1)}`);
  assert.equal(ratio(1), 2 / 3);
});

test('RRF: no legs or zero weights give no scores above 0 and no NaN', () => {
  assert.deepEqual(weightedRrf([], 60), []);
  const zero = weightedRrf([leg('sparse', 0, ['a'])], 60);
  assert.equal(zero.length, 1);
  assert.equal(zero[0].score, 0);
});

test('convex: min-max normalised per leg, weighted by leg, a missing leg counts 0', () => {
  const fused = convexMix([
    { leg: 'sparse', weight: 0.75, ids: ['a', 'b', 'c'], scores: [12, 7, 2] },
    { leg: 'vector', weight: 0.25, ids: ['c', 'b'], scores: [0.9, 0.5] },
  ]);
  const byId = Object.fromEntries(fused.map((f) => [f.id, f.score]));
  assert.equal(byId.a, 0.75); // best sparse, absent from vector
  assert.equal(byId.b, 0.75 * 0.5 + 0); // middle sparse, worst vector
  assert.equal(byId.c, 0 + 0.25); // worst sparse, best vector
  assert.deepEqual(
    fused.map((f) => f.id),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(fused.find((f) => f.id === 'c')?.ranks, { sparse: 3, vector: 1 });
});

test('convex: a leg whose scores are all equal gives every chunk its full weight; scores stay in 0..1', () => {
  const fused = convexMix([
    { leg: 'sparse', weight: 2, ids: ['a', 'b'], scores: [3, 3] },
    { leg: 'graph', weight: 2, ids: [], scores: [] },
  ]);
  assert.deepEqual(
    fused.map((f) => f.score),
    [0.5, 0.5],
  );
  // Control: unequal scores spread them.
  const spread = convexMix([{ leg: 'sparse', weight: 1, ids: ['a', 'b'], scores: [3, 1] }]);
  assert.deepEqual(
    spread.map((f) => f.score),
    [1, 0],
  );
});

test('single: one leg passes through in its own order with its own scores', () => {
  const out = single({ leg: 'vector', weight: 0.2, ids: ['z', 'y'], scores: [0.8, 0.3] });
  assert.deepEqual(out, [
    { id: 'z', score: 0.8, ranks: { vector: 1 } },
    { id: 'y', score: 0.3, ranks: { vector: 2 } },
  ]);
});

test('convex: a leg on a fixed scale (fullScore) is divided by its best possible score, not min-max spread', () => {
  // Two weak graph hops (0.1 and 0.05 of a named definition's 1) beside a sparse list.
  const lists = (fullScore?: number): LegResult[] => [
    { leg: 'sparse', weight: 1, ids: ['answer', 'header', 'tail'], scores: [10, 9.8, 1] },
    { leg: 'graph', weight: 0.15, ids: ['header', 'other'], scores: [0.1, 0.05], fullScore },
  ];
  const fixed = convexMix(lists(1));
  const byId = Object.fromEntries(fixed.map((f) => [f.id, f.score]));
  assert.equal(fixed[0].id, 'answer');
  assert.ok(Math.abs(byId.header - (8.8 / 9 + 0.15 * 0.1) / 1.15) < 1e-12, String(byId.header));
  assert.ok(Math.abs(byId.other - (0.15 * 0.05) / 1.15) < 1e-12, String(byId.other));
  // Control: min-max makes the weaker of two hops 0 and the better a full vote, which lifts the
  // sparse leg's second chunk above its first.
  assert.equal(convexMix(lists())[0].id, 'header');
});
