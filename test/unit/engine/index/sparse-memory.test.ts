// The cut of the in-memory BM25's best list is found by selection; it is the value a full sort
// puts at the same index, on random scores, ties, sorted runs and equal values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nthSmallest } from '../../../../main/engine/index/memory-table.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

test('nthSmallest gives what a sort puts at index n', () => {
  const r = rng(7);
  const shapes: ((i: number, len: number) => number)[] = [
    () => r() * 10,
    () => Math.floor(r() * 4),
    (i) => i,
    (i, len) => len - i,
    () => 1.5,
    (i) => (i % 50) + r(),
  ];
  let differ = 0;
  let cases = 0;
  for (const shape of shapes) {
    for (const len of [1, 2, 3, 10, 101, 5000]) {
      const base = Float32Array.from({ length: len }, (_, i) => shape(i, len));
      const sorted = Float32Array.from(base).sort();
      for (const n of [0, len >> 1, len - 1, Math.floor(r() * len)]) {
        assert.equal(nthSmallest(Float32Array.from(base), n), sorted[n], `length ${len}, index ${n}`);
        cases++;
        // Control: a neighbouring index of the sort is a different value wherever values differ.
        if (n + 1 < len && sorted[n + 1] !== sorted[n]) differ++;
      }
    }
  }
  assert.ok(cases > 100, `only ${cases} cases`);
  assert.ok(differ > 30, `only ${differ} cases where an off-by-one answer would have been caught`);
});
