// Unit: which chunks seed the graph leg's one-hop expansion (main/engine/search/graph-leg.ts), without an index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedIds } from '../../../../main/engine/search/graph-leg.js';
import type { LegResult } from '../../../../main/engine/search/fusion.js';

const sparse: LegResult = {
  leg: 'sparse',
  weight: 1,
  ids: ['s1', 's2', 's3'],
  scores: [3, 2, 1],
  kinds: ['code', 'code', 'markdown'],
};
const dense = (weightByKind?: Record<string, number>): LegResult => ({
  leg: 'vector',
  weight: 0.3,
  ids: ['v1', 'v2', 'v3'],
  scores: [0.9, 0.8, 0.7],
  kinds: ['code', 'markdown', 'code'],
  weightByKind,
});

test('the legs interleave their best chunks as seeds', () => {
  assert.deepEqual(seedIds([sparse, dense()], 4), ['s1', 'v1', 's2', 'v2']);
});

test('a leg seeds only chunks of the kinds it has a say on (a model with weight 0 on code seeds prose only)', () => {
  assert.deepEqual(seedIds([sparse, dense({ code: 0 })], 4), ['s1', 's2', 'v2', 's3']);
  // Control: a weight above 0 on code keeps its code chunks as seeds.
  assert.deepEqual(seedIds([sparse, dense({ code: 0.1 })], 4), ['s1', 'v1', 's2', 'v2']);
});
