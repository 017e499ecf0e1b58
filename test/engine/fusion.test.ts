// Fusion (search/fusion.ts): a leg's weight may depend on the kind of the chunk's file, so a
// dense model that cannot represent code has no say on code chunks while it still ranks prose.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { convexMix, legWeight, weightedRrf, type LegResult } from '../../main/engine/search/fusion.js';

const sparse: LegResult = {
  leg: 'sparse',
  weight: 1,
  ids: ['c1', 'c2', 'p1', 'p2'],
  scores: [4, 3, 2, 1],
  kinds: ['code', 'code', 'markdown', 'markdown'],
};
// The vector leg prefers c2 over c1, p2 over p1, and alone finds c3.
const vector = (weightByKind?: Record<string, number>): LegResult => ({
  leg: 'vector',
  weight: 1,
  weightByKind,
  ids: ['c3', 'c2', 'p2', 'c1', 'p1'],
  scores: [0.9, 0.8, 0.7, 0.2, 0.1],
  kinds: ['code', 'code', 'markdown', 'code', 'markdown'],
});

const order = (xs: { id: string }[]) => xs.map((x) => x.id);

for (const [name, fuse] of [
  ['convex', (l: LegResult[]) => convexMix(l)],
  ['weighted rrf', (l: LegResult[]) => weightedRrf(l, 1)],
] as const) {
  describe(`${name}: dense weight by kind`, () => {
    test('with weight 0 on code, code chunks keep the sparse order and a vector-only code chunk is not added', () => {
      const fused = fuse([sparse, vector({ code: 0 })]);
      const code = order(fused).filter((id) => id.startsWith('c'));
      assert.deepEqual(code, ['c1', 'c2']);
      assert.equal(fused.find((f) => f.id === 'c1')?.ranks.vector, undefined);
      // Control: without the per-kind weight the vector leg reorders the code chunks and adds c3.
      const plain = order(fuse([sparse, vector()])).filter((id) => id.startsWith('c'));
      assert.notDeepEqual(plain, ['c1', 'c2']);
      assert.ok(plain.includes('c3'));
    });

    test('prose still gets the dense vote', () => {
      const prose = order(fuse([sparse, vector({ code: 0 })])).filter((id) => id.startsWith('p'));
      const alone = order(fuse([sparse])).filter((id) => id.startsWith('p'));
      assert.deepEqual(alone, ['p1', 'p2']);
      assert.deepEqual(prose, ['p2', 'p1']);
    });

    test('a code chunk is not capped below prose for lacking the vote it cannot get', () => {
      const fused = fuse([sparse, vector({ code: 0 })]);
      // c1 is the sparse leg's best: under its kind's weights it is as good as a chunk can be.
      assert.equal(fused[0].id, 'c1');
      assert.ok(Math.abs(fused[0].score - 1) < 1e-9, String(fused[0].score));
      // Control: under one ceiling for every kind it would be held below 1.
      assert.ok(fuse([sparse, vector()]).every((f) => f.score < 1));
    });
  });
}

test('legWeight: the kind weight where listed, else the leg weight', () => {
  const v = vector({ code: 0.05 });
  assert.equal(legWeight(v, 'code'), 0.05);
  assert.equal(legWeight(v, 'markdown'), 1);
  assert.equal(legWeight(v, undefined), 1);
});
