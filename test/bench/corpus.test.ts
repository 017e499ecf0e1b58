// The synthetic corpus must be byte-identical for a seed (figures compare across runs) and differ across seeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { corpusFiles, corpusQueries } from '../../bench/corpus/synthetic.js';
import { createRng } from '../../bench/lib/prng.js';

function digest(chunks: number, seed: number): { hash: string; files: number; kinds: Set<string> } {
  const h = createHash('sha256');
  let files = 0;
  const kinds = new Set<string>();
  for (const f of corpusFiles({ chunks, seed })) {
    h.update(f.rel).update('\0').update(f.text);
    files++;
    kinds.add(f.rel.slice(f.rel.lastIndexOf('.') + 1));
  }
  return { hash: h.digest('hex'), files, kinds };
}

test('the same seed gives the same corpus, another seed another corpus', () => {
  const a = digest(800, 42);
  assert.equal(digest(800, 42).hash, a.hash);
  assert.notEqual(digest(800, 43).hash, a.hash);
  assert.equal(a.files, 69); // 800 chunks at CHUNKS_PER_FILE 11.75
  assert.deepEqual([...a.kinds].sort(), ['go', 'md', 'py', 'ts']);
});

test('queries are deterministic and non-empty', () => {
  const q = corpusQueries(50);
  assert.deepEqual(corpusQueries(50), q);
  assert.ok(q.every((s) => s.trim().length > 0));
  assert.notDeepEqual(corpusQueries(50, 8), q);
});

test('the PRNG is seeded and uniform enough', () => {
  const a = createRng(1);
  const b = createRng(1);
  const xs = Array.from({ length: 1000 }, () => a.next());
  assert.deepEqual(
    Array.from({ length: 1000 }, () => b.next()),
    xs,
  );
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(mean - 0.5) < 0.05);
  assert.deepEqual(createRng(3).shuffle([1, 2, 3, 4, 5]).sort(), [1, 2, 3, 4, 5]);
});

test('every grep pattern is a valid JavaScript regular expression', async () => {
  const { GREP_PATTERNS } = await import('../../bench/benchmarks/grep.js');
  for (const p of GREP_PATTERNS)
    assert.doesNotThrow(
      () => new RegExp(p.regex ? p.pattern : p.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      p.pattern,
    );
  assert.ok(GREP_PATTERNS.some((p) => p.regex) && GREP_PATTERNS.some((p) => !p.regex));
});

test('fixture sizes: 10k and 100k in a full run, one small one in quick mode, or as given', async () => {
  const { fixtureSizes } = await import('../../bench/lib/indexed-fixture.js');
  assert.deepEqual(fixtureSizes(false, new Map()), [10_000, 100_000]);
  assert.deepEqual(fixtureSizes(true, new Map()), [2_000]);
  assert.deepEqual(fixtureSizes(true, new Map([['fixture-chunks', '500,1000']])), [500, 1000]);
});
