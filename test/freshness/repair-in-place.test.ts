// In-place repair by a serving engine: a data file of the chunks table damaged while the engine
// serves gives a typed `index_corrupt` naming the table (not LanceDB's raw I/O text); the engine
// moves the damaged index aside, builds a new one in the background and says so in status; once
// done, it answers as a fresh build of the same folder does. The control: an engine that is not
// serving (a CLI command's) names the same damage and leaves the index where it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { CairnError } from '../../main/engine/errors.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { FolderModel, sleep } from './lib.js';
import { filesUnder } from '../helpers/files.js';

async function damageChunks(home: string): Promise<void> {
  for (const f of await filesUnder(join(home, 'index', 'chunks.lance', 'data')))
    await truncate(f, Math.floor((await stat(f)).size / 2));
}

async function searchError(engine: Engine): Promise<unknown> {
  try {
    await engine.search({ query: 'gardening weather', mode: 'sparse', top_k: 50 });
    return null;
  } catch (err) {
    return err;
  }
}

async function ranked(engine: Engine): Promise<string[]> {
  return (await engine.search({ query: 'gardening weather note', mode: 'sparse', top_k: 50 })).hits.map(
    (h) => `${h.path}:${h.start_line}`,
  );
}

test(
  'a serving engine names damage, moves the index aside and rebuilds it in place',
  { timeout: 300_000 },
  async () => {
    const folder = await tempDir('rip-folder');
    const model = new FolderModel(folder.dir);
    for (let i = 0; i < 30; i++) await model.add();

    // The reference: a fresh build of the same folder.
    const ref = await tempDir('rip-ref');
    const fresh = await openEngine({ home: ref.dir });
    await fresh.addFolder({ path: folder.dir, text_only: true });
    await indexNow(fresh, folder.dir, 'create');
    await fresh.runMaintenance();
    const expected = await ranked(fresh);
    await fresh.close();
    assert.ok(expected.length > 0);

    for (const serving of [false, true]) {
      const home = await tempDir(serving ? 'rip-serving' : 'rip-cli');
      let engine = await openEngine({ home: home.dir });
      await engine.addFolder({ path: folder.dir, text_only: true });
      await indexNow(engine, folder.dir, 'create');
      await engine.runMaintenance();
      await engine.close();
      engine = await openEngine({ home: home.dir, serving });
      try {
        assert.deepEqual(await ranked(engine), expected);
        // Sparse searches are answered from the in-memory mirror, hits' text included, which reads
        // none of the damaged files (a copy of the rows as they were); the damage is named by the
        // first search that reads the table, which this one is made to be.
        engine.store.reads.memory.disable();
        await damageChunks(home.dir);
        const err = await searchError(engine);
        assert.ok(err instanceof CairnError, `search on damage threw ${String(err)}`);
        assert.equal(err.code, 'index_corrupt', err.message);
        assert.equal(err.details?.table, 'chunks', err.message);
        assert.match(err.message, /table chunks/);

        if (!serving) {
          // The control: the same damage, no repair: still named, the index left in place.
          const st = await engine.status();
          assert.equal(st.index_damage?.code, 'index_corrupt');
          assert.equal(st.index_repair ?? null, null);
          assert.equal((await searchError(engine)) instanceof CairnError, true);
          assert.ok(!(await readdir(home.dir)).some((n) => n.startsWith('index.corrupt-')));
          continue;
        }
        const first = (await engine.status()).index_repair;
        assert.ok(first, 'status does not show the repair');
        assert.equal(first.damage.code, 'index_corrupt');
        assert.equal((first.damage.details as { table?: string } | undefined)?.table, 'chunks');
        for (let i = 0; i < 600; i++) {
          const r = (await engine.status()).index_repair;
          if (r?.state === 'done' || r?.state === 'failed') break;
          await sleep(100);
        }
        const st = await engine.status();
        assert.equal(st.index_repair?.state, 'done', JSON.stringify(st.index_repair));
        assert.equal(st.index_damage, null);
        const moved = st.index_repair?.moved_to ?? '';
        assert.ok((await readdir(home.dir)).includes(moved.split('/').pop() ?? '-'), `moved to ${moved}`);
        await engine.idle();
        const [f] = await engine.folders();
        assert.equal(f.files, model.files.size, JSON.stringify(f));
        assert.equal(f.reason ?? null, null, JSON.stringify(f));
        assert.deepEqual(await ranked(engine), expected);
      } finally {
        await engine.close();
        await home.cleanup();
      }
    }
    await ref.cleanup();
    await folder.cleanup();
  },
);
