// An embedding pass looks up what was written before it in the vectors table as it was when the
// pass began, through the key indexes. Vectors a crashed pass wrote were never folded into them by
// maintenance; a pass that finds many such rows indexes them before its first step. Real LanceDB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexStore, vectorRowFor } from '../../main/engine/index/store.js';
import type { VectorSource } from '../../main/engine/index/tables.js';
import { tempDir } from '../helpers/engine.js';

const DIM = 4;
const NAME = 'vectors__pass_4';

const chunk = (i: number): VectorSource => ({
  id: `c${i}`,
  folder: '/f',
  path: `/f/${i % 500}.md`,
  rel: `${i % 500}.md`,
  ext: 'md',
  kind: 'text',
  mtime: 0,
  text_hash: 'h',
  text: `text ${i}`,
  heading: '',
  symbol: '',
});

async function unindexed(store: IndexStore, column: string): Promise<number> {
  const t = (await store.vectors(NAME, DIM, false))!;
  const index = (await t.listIndices()).find((i) => i.columns[0] === column);
  return index ? ((await t.indexStats(index.name))?.numUnindexedRows ?? 0) : await t.countRows();
}

test('a pass indexes the keys of many rows written since the last maintenance; a few it leaves', async () => {
  const { dir, cleanup } = await tempDir('pass-vectors');
  try {
    const store = await IndexStore.open(dir);
    try {
      await store.vectors(NAME, DIM, true);
      // The control first: a few hundred rows outside the indexes are scanned, not indexed.
      await store.addVectors(
        NAME,
        Array.from({ length: 300 }, (_, i) => vectorRowFor(chunk(i), [1, 0, 0, i])),
      );
      let pass = await store.passVectors(NAME);
      pass.close();
      assert.equal(await unindexed(store, 'id'), 300);
      assert.equal(await unindexed(store, 'input_hash'), 300);

      // As a crashed pass leaves them: 25k rows written and never folded in.
      for (let i = 300; i < 25_300; i += 5_000)
        await store.addVectors(
          NAME,
          Array.from({ length: 5_000 }, (_, k) => vectorRowFor(chunk(i + k), [0, 1, 0, k])),
        );
      pass = await store.passVectors(NAME);
      try {
        assert.equal(await unindexed(store, 'id'), 0);
        assert.equal(await unindexed(store, 'input_hash'), 0);
        // Lookups through the new indexes answer as before: its own vector, and a copy for a new
        // chunk of the same input.
        const twin = { ...chunk(20_000), id: 'twin' };
        const have = await pass.fromBefore([chunk(7), chunk(24_999), twin, chunk(30_000)]);
        assert.deepEqual([...have].sort(), ['c24999', 'c7', 'twin']);
      } finally {
        pass.close();
      }
    } finally {
      await store.close();
    }
  } finally {
    await cleanup();
  }
});
