// Maintenance asked for directly (benchmarks, tests, the end of a long run) and the engine's own
// debounced pass never overlap each other or a job's writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { FolderModel } from './lib.js';

test('maintenance passes run one at a time beside writes', { timeout: 300_000 }, async () => {
  const home = await tempDir('mo-home');
  const folder = await tempDir('mo-folder');
  const engine = await openEngine({ home: home.dir, maintenance: { keepVersionsMs: 0 } });
  try {
    engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
    const model = new FolderModel(folder.dir);
    for (let i = 0; i < 60; i++) await model.add();
    await engine.addFolder({ path: folder.dir });
    await indexNow(engine, folder.dir, 'create');
    for (let round = 0; round < 4; round++) {
      for (const rel of [...model.files.keys()].slice(round * 10, round * 10 + 10)) await model.edit(rel);
      await writeFile(join(folder.dir, `extra${round}.md`), `# extra ${round}\n\nmaintenance round ${round}\n`);
      const job = engine.indexFolder(folder.dir, 'update');
      // Several passes asked for at once, beside the job: each must complete.
      await Promise.all([engine.runMaintenance(), engine.runMaintenance(), job, engine.runMaintenance()]);
      await engine.idle();
      const info = engine.job((await job).id);
      assert.equal(info?.state, 'done', JSON.stringify(info?.error));
    }
    await engine.runMaintenance();
    const [st] = await engine.folders();
    assert.equal(st.files, model.files.size + 4);
  } finally {
    await engine.close();
    await home.cleanup();
    await folder.cleanup();
  }
});
