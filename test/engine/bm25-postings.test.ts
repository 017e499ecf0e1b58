// The in-memory BM25's postings (index/bm25.ts) live in three places over time: appended to a
// pending buffer, placed in a tail by token, merged into the CSR block. However adds, searches,
// removals and merges interleave, an index must answer as one built at once over its live documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bm25Index } from '../../main/engine/index/bm25.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const words = Array.from({ length: 400 }, (_, i) => `w${i}`);
function doc(r: () => number): string {
  // Skewed word use, as in text: a few words in most documents, most words in few.
  return Array.from({ length: 4 + Math.floor(r() * 16) }, () => words[Math.floor(r() ** 3 * words.length)]).join(' ');
}

/** Each matched document (by its text and order of addition) with its score. */
function answers(index: Bm25Index, query: string, keyOf: (slot: number) => string): Map<string, number> {
  const { slots, count, sums } = index.search(query);
  const out = new Map<string, number>();
  for (let i = 0; i < count; i++) out.set(keyOf(slots[i]), sums[slots[i]]);
  return out;
}

function interleaved(pendingMerge?: number): void {
  const r = rng(7);
  const live = new Map<number, { key: string; text: string }>();
  const index = new Bm25Index(undefined, pendingMerge);
  let added = 0;
  const add = (n: number) => {
    for (let i = 0; i < n; i++) {
      const text = doc(r);
      live.set(index.add(text), { key: `d${added++}`, text });
    }
  };
  const remove = (n: number) => {
    for (const slot of [...live.keys()].filter(() => r() < n / live.size)) {
      index.remove(slot);
      live.delete(slot);
    }
  };
  const queries = Array.from({ length: 40 }, () => doc(r).split(' ').slice(0, 3).join(' '));
  // Bulk, then a merge; small adds that go to the tail; removals; adds past the merge threshold
  // (50k postings) arriving while searches run; more removals than the dead-slot threshold; a
  // merge due while some of the documents waiting for it are already removed.
  add(3000);
  index.compact();
  const steps: (() => void)[] = [
    () => add(200),
    () => remove(50),
    () => add(7000),
    () => remove(1500),
    () => add(300),
    () => {
      add(6000);
      remove(800);
    },
  ];
  const fresh = (skip?: number) => {
    const ref = new Bm25Index();
    const keys: string[] = [];
    for (const [slot, d] of live) {
      if (slot === skip) continue;
      keys[ref.add(d.text)] = d.key;
    }
    ref.compact();
    return { ref, keys };
  };
  let compared = 0;
  for (const step of steps) {
    step();
    const { ref, keys } = fresh();
    for (const q of queries) {
      const got = answers(index, q, (slot) => live.get(slot)!.key);
      const want = answers(ref, q, (slot) => keys[slot]);
      assert.deepEqual(got, want, `query "${q}"`);
      compared += want.size;
    }
  }
  assert.ok(compared > 10_000, `the queries matched documents (${compared})`);
  // Control: the comparison tells one missing document apart.
  const { ref, keys } = fresh([...live.keys()][0]);
  const differs = queries.some(
    (q) =>
      JSON.stringify([...answers(index, q, (slot) => live.get(slot)!.key)]) !==
      JSON.stringify([...answers(ref, q, (slot) => keys[slot])]),
  );
  assert.ok(differs, 'an index missing one live document answers differently');
}

test('interleaved adds, searches, removals and merges answer as a bulk build of the live documents', () => {
  interleaved();
});

test('so do they when adds merge their pending postings as they go, as a bulk build does', () => {
  // 1M postings in production; here a merge falls inside most steps, on the document just added.
  interleaved(2_000);
});
