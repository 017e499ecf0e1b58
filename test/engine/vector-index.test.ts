// The ANN vector index must keep recall: recall@10 against exact search, on a real LanceDB table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexStore } from '../../main/engine/index/store.js';
import { maintain } from '../../main/engine/index/maintenance.js';
import { vectorLeg } from '../../main/engine/search/legs.js';
import { VectorReads } from '../../main/engine/index/search-reads.js';
import { tempDir } from '../helpers/engine.js';

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

test('HNSW index recall@10 against exact search is at least 0.95', async () => {
  const { dir, cleanup } = await tempDir('ann');
  const store = await IndexStore.open(dir);
  try {
    const dim = 64;
    const data = vectors(4000, dim, 7);
    const table = await store.vectors('vectors__test_64', dim, true);
    assert.ok(table);
    await table.add(
      data.map((v, i) => ({
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
      })),
    );
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
