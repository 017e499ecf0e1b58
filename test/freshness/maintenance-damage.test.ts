// Damage met by a maintenance pass is named like a write's: a pass that compacts a fragment whose
// data file was cut short ends in a typed `index_corrupt` naming the table, and status says so
// (a serving engine would start its repair from there). Before, the pass ran as a hidden job and
// its failure went nowhere: nothing told the person, and searches answered from memory. The
// control: the same index and edit, undamaged, where the same pass succeeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { CairnError } from '../../main/engine/errors.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { FolderModel } from './lib.js';
import { filesUnder } from '../helpers/files.js';

test('a maintenance pass that meets a damaged table names it in status', { timeout: 180_000 }, async () => {
  const folder = await tempDir('mdmg-folder');
  const model = new FolderModel(folder.dir);
  for (let i = 0; i < 20; i++) await model.add();
  for (const damaged of [false, true]) {
    const home = await tempDir(damaged ? 'mdmg-damaged' : 'mdmg-control');
    const engine = await openEngine({ home: home.dir });
    try {
      await engine.addFolder({ path: folder.dir, text_only: true });
      await indexNow(engine, folder.dir, 'create');
      await engine.runMaintenance();
      // The edit's update of the files table adds a fragment and deletes a row of the first one;
      // the next pass compacts both, so it reads the first one's data file.
      await model.edit([...model.files.keys()][0]);
      await indexNow(engine, folder.dir, 'update');
      if (damaged)
        for (const f of await filesUnder(join(home.dir, 'index', 'files.lance', 'data'))) await truncate(f, 16);
      const err = await engine.runMaintenance().then(
        () => null,
        (e: unknown) => e,
      );
      const st = await engine.status();
      if (!damaged) {
        assert.equal(err, null);
        assert.equal(st.index_damage, null);
        continue;
      }
      assert.ok(err instanceof CairnError, `the pass failed with ${String(err)}`);
      assert.equal(err.code, 'index_corrupt', err.message);
      assert.equal(st.index_damage?.code, 'index_corrupt');
      assert.equal((st.index_damage?.details as { table?: string } | undefined)?.table, 'files');
      // Known damage is not compacted again: the next pass does nothing and says nothing new.
      await engine.runMaintenance();
    } finally {
      await engine.close();
      await home.cleanup();
    }
  }
  await folder.cleanup();
});
