// The ANN vector index must keep recall: recall@10 against exact search, on a real LanceDB table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexStore } from '../../main/engine/index/store.js';
import { MAX_VECTOR_SEGMENTS, maintain } from '../../main/engine/index/maintenance.js';
import { vectorLeg } from '../../main/engine/search/legs.js';
import { VectorReads } from '../../main/engine/index/search-reads.js';
import { tempDir } from '../helpers/engine.js';
import type { Table } from '@lancedb/lancedb';

/** Deterministic clustered unit vectors: nearest neighbours are close, like text embeddings. */
function vectors(n: number, dim: number, seed: number): Float32Array[] {
  let s = seed >>> 0;
  const rnd = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  const centres = Array.from({ length: 40 }, () => Float32Array.from({ length: dim }, rnd));
  return Array.from({ length: n }, (_, i) => {
    const c = centres[i % centres.length];
    const v = Float32Array.from(c, (x) => x + 0.6 * rnd());
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

function rowsOf(data: Float32Array[], from: number) {
  return data.map((v, k) => {
    const i = from + k;
    return {
      id: `c${i}`,
      folder: '/f',
      path: `/f/${i}.md`,
      rel: `${i}.md`,
      ext: 'md',
      kind: 'markdown',
      mtime: 0,
      text_hash: `h${i}`,
      input_hash: `i${i}`,
      vector: Array.from(v),
    };
  });
}

test('the vector index keeps a bounded number of segments: a large delta or one segment too many rebuilds it', async () => {
  const { dir, cleanup } = await tempDir('ann-segments');
  const store = await IndexStore.open(dir);
  try {
    const dim = 16;
    const table = await store.vectors('vectors__test_16', dim, true);
    assert.ok(table);
    const opts = { vectorIndexThreshold: 1000, keepVersionsMs: 0 };
    const ann = async () => {
      const i = (await table.listIndices()).find((x) => x.columns.includes('vector'));
      assert.ok(i, 'no vector index');
      return { segments: i.numSegments ?? 0, unindexed: i.numUnindexedRows ?? -1, indexed: i.numIndexedRows ?? 0 };
    };
    let next = 0;
    const add = async (n: number) => {
      await table.add(rowsOf(vectors(n, dim, next + 1), next));
      next += n;
      await maintain([], table, opts);
    };
    await add(2000);
    assert.deepEqual(await ann(), { segments: 1, unindexed: 0, indexed: 2000 });
    // Control: a small delta becomes a segment of its own (what the bound is about).
    await add(20);
    assert.deepEqual(await ann(), { segments: 2, unindexed: 0, indexed: 2020 });
    // A delta of half the index or more is folded into one rebuilt index, not a second large segment.
    await add(1100);
    assert.deepEqual(await ann(), { segments: 1, unindexed: 0, indexed: 3120 });
    const seen: number[] = [];
    for (let pass = 0; pass < MAX_VECTOR_SEGMENTS + 3; pass++) {
      await add(10);
      const a = await ann();
      assert.equal(a.unindexed, 0, `pass ${pass}: rows left unindexed`);
      assert.equal(a.indexed, next, `pass ${pass}: indexed rows`);
      seen.push(a.segments);
    }
    assert.equal(Math.max(...seen), MAX_VECTOR_SEGMENTS, `segments per pass: ${seen.join(' ')}`);
    assert.ok(seen.includes(1), `the index was never rebuilt: ${seen.join(' ')}`);
    // A table emptied (its folders removed) keeps its maintenance working, with nothing to rebuild.
    await table.delete('true');
    await maintain([], table, opts);
    assert.equal(await table.countRows(), 0);
  } finally {
    await store.close();
    await cleanup();
  }
});

test('HNSW index recall@10 against exact search is at least 0.95', async () => {
  const { dir, cleanup } = await tempDir('ann');
  const store = await IndexStore.open(dir);
  try {
    const dim = 64;
    const data = vectors(4000, dim, 7);
    const table = await store.vectors('vectors__test_64', dim, true);
    assert.ok(table);
    await table.add(rowsOf(data, 0));
    await maintain([], table, { vectorIndexThreshold: 1000, keepVersionsMs: 0 });
    const indices = await table.listIndices();
    assert.ok(
      indices.some((i) => i.columns.includes('vector')),
      'the vector index was not built above the threshold',
    );
    const queries = vectors(50, dim, 99);
    let found = 0;
    for (const q of queries) {
      const ann = await vectorLeg(new VectorReads(table), q, undefined, 10, 1);
      const exact = (await table
        .query()
        .nearestTo(q)
        .distanceType('cosine')
        .bypassVectorIndex()
        .select(['id', '_distance'])
        .limit(10)
        .toArray()) as { id: string }[];
      const truth = new Set(exact.map((r) => r.id));
      found += ann.ids.filter((id) => truth.has(id)).length;
    }
    const recall = found / (queries.length * 10);
    assert.ok(recall >= 0.95, `recall@10 ${recall}`);
  } finally {
    await store.close();
    await cleanup();
  }
});

/** The real table, with the order of its compactions and index builds written down. */
function recorded(table: Table): { table: Table; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(table, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'optimize' || key === 'createIndex')
        return (...args: unknown[]) => (calls.push(key), (value as (...a: unknown[]) => unknown).apply(target, args));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { table: proxy, calls };
}

test('a first vector index is built on the compacted table, never compacted after; a rebuild compacts after it', async () => {
  const { dir, cleanup } = await tempDir('ann-order');
  const store = await IndexStore.open(dir);
  try {
    const dim = 16;
    const real = await store.vectors('vectors__test_16', dim, true);
    assert.ok(real);
    const opts = { vectorIndexThreshold: 1000, keepVersionsMs: 0 };
    // Twelve writes, as an indexing run leaves them (one per step of files).
    for (let f = 0; f < 12; f++) await real.add(rowsOf(vectors(100, dim, f + 1), f * 100));
    assert.equal((await real.stats()).fragmentStats.numFragments, 12);
    const first = recorded(real);
    await maintain([], first.table, opts);
    assert.deepEqual(first.calls, ['optimize', 'createIndex']);
    assert.equal((await real.stats()).fragmentStats.numFragments, 1, 'the table was not compacted');
    const ann = (await real.listIndices()).find((i) => i.columns.includes('vector'));
    assert.deepEqual([ann?.numIndexedRows, ann?.numUnindexedRows, ann?.numSegments], [1200, 0, 1]);
    // Control: with an index serving, a large delta rebuilds it first and compacts after.
    await real.add(rowsOf(vectors(700, dim, 50), 1200));
    const rebuild = recorded(real);
    await maintain([], rebuild.table, opts);
    assert.deepEqual(rebuild.calls, ['createIndex', 'optimize']);
    // And a small delta is folded in by the compaction alone, as a segment.
    await real.add(rowsOf(vectors(10, dim, 60), 1900));
    const small = recorded(real);
    await maintain([], small.table, opts);
    assert.deepEqual(small.calls, ['optimize']);
    const after = (await real.listIndices()).find((i) => i.columns.includes('vector'));
    assert.deepEqual([after?.numIndexedRows, after?.numUnindexedRows], [1910, 0]);
  } finally {
    await store.close();
    await cleanup();
  }
});
