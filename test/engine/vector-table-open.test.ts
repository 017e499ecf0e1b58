// The vectors table is opened once per session however many searches ask at once: after a reopen
// (every maintenance pass) the searches in flight all find no table, and each one they opened
// beyond the one kept was never closed, holding the retired session and its open index files until
// collected. Also: a table opened while a reopen retires the connection is not the one kept. Real
// LanceDB on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexStore } from '../../main/engine/index/store.js';
import { tempDir } from '../helpers/engine.js';

const DIM = 4;
const NAME = 'vectors__open_4';

test('concurrent first opens after a reopen share one table', async () => {
  const { dir, cleanup } = await tempDir('vector-open');
  try {
    const store = await IndexStore.open(dir);
    try {
      assert.ok(await store.vectors(NAME, DIM, true));
      await store.reopen(0);
      const tables = await Promise.all(Array.from({ length: 8 }, () => store.vectors(NAME, DIM, false)));
      assert.equal(new Set(tables).size, 1);
      // The control: the one kept is what a later call gets, and it reads.
      assert.equal(await store.vectors(NAME, DIM, false), tables[0]);
      assert.equal(await tables[0]!.countRows(), 0);
    } finally {
      await store.close();
    }
  } finally {
    await cleanup();
  }
});

test('a table opened across a reopen is kept by the new connection or retired with the old one', async () => {
  const { dir, cleanup } = await tempDir('vector-open-reopen');
  try {
    const store = await IndexStore.open(dir);
    try {
      assert.ok(await store.vectors(NAME, DIM, true));
      // Several rounds: which of the open and the reopen finishes first varies.
      for (let round = 0; round < 6; round++) {
        await store.reopen(0);
        const opening = store.vectors(NAME, DIM, false);
        await store.reopen(0);
        const t = await opening;
        assert.ok(t);
        // Retired tables are closed after the grace (0 here).
        await new Promise((r) => setTimeout(r, 20));
        const now = await store.vectors(NAME, DIM, false);
        // Never open yet not the store's: such a table is closed by nothing.
        if (t.isOpen()) assert.equal(t, now);
      }
    } finally {
      await store.close();
    }
  } finally {
    await cleanup();
  }
});
