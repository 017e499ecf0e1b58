// Maintenance closes what it replaces: under rounds of edits, searches and maintenance passes, the
// index files that a pass deleted are not held open (their descriptors and disk space come back),
// and the number of descriptors open on the index does not grow with the rounds. LanceDB frees a
// replaced session's cached indexes when V8 collects its last object, so the test collects garbage
// before each look: what it measures is what the engine keeps referenced, not GC timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as lancedb from '@lancedb/lancedb';
import { MatchQuery } from '@lancedb/lancedb';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { FolderModel } from './lib.js';
import { openIndexFiles } from '../../bench/lib/descriptors.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
}

const linux = process.platform === 'linux';

test(
  'maintenance leaves no deleted index file open, and open descriptors stay flat',
  { timeout: 300_000, skip: !linux && 'reads /proc/self/fd (Linux only)' },
  async () => {
    const home = await tempDir('fd-home');
    const folder = await tempDir('fd-folder');
    const engine = await openEngine({ home: home.dir, maintenance: { keepVersionsMs: 0, retireAfterMs: 0 } });
    try {
      const model = new FolderModel(folder.dir);
      for (let i = 0; i < 30; i++) await model.add();
      await engine.addFolder({ path: folder.dir, text_only: true });
      await indexNow(engine, folder.dir, 'create');
      const rels = [...model.files.keys()];
      const after: number[] = [];
      let heldByControl = 0;
      for (let round = 0; round < 8; round++) {
        for (const rel of rels.slice((round * 5) % rels.length, ((round * 5) % rels.length) + 5)) await model.edit(rel);
        await indexNow(engine, folder.dir, 'update');
        const before = await engine.search({ query: 'gardening weather', mode: 'sparse', top_k: 5 });
        assert.ok(before.hits.length > 0);
        // The control: a connection of its own, kept across the pass as the engine kept its
        // tables before, must be seen holding the files the pass deleted.
        const control = round === 4 ? await lancedb.connect(join(home.dir, 'index')) : null;
        const controlTable = await control?.openTable('chunks');
        await controlTable?.query().fullTextSearch(new MatchQuery('gardening', 'search_text')).limit(3).toArray();
        await engine.runMaintenance();
        if (control) {
          await collect();
          heldByControl = openIndexFiles(home.dir).deleted.length;
          controlTable?.close();
          control.close();
        }
        const res = await engine.search({ query: 'gardening weather', mode: 'sparse', top_k: 5 });
        assert.ok(res.hits.length > 0);
        await collect();
        const open = openIndexFiles(home.dir);
        assert.deepEqual(open.deleted, [], `round ${round}: deleted index files still open`);
        assert.equal(open.deletedBytes, 0);
        after.push(open.all.length);
      }
      assert.ok(heldByControl > 0, 'a connection kept across the pass held no deleted file: the probe sees nothing');
      // Flat: the last rounds hold no more descriptors on the index than the first ones.
      assert.ok(Math.max(...after.slice(-3)) <= Math.max(...after.slice(0, 3)), `descriptors per round: ${after}`);
    } finally {
      await engine.close();
      await home.cleanup();
      await folder.cleanup();
    }
  },
);
