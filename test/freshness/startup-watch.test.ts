// Start-up while the disk changes: directories created while the watcher subscribes and the
// start-up reconcile runs must be watched afterwards (a later file in them is applied), and no
// folder reads `fresh` before its reconcile since start has finished, although files changed while
// no engine ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { eventually } from './lib.js';

const note = (tok: string) => `# Log\n\nentry ${tok} by the river\n`;

test('directories created during start-up are watched afterwards', { timeout: 300_000 }, async () => {
  const home = await tempDir('sw-home');
  const folder = await tempDir('sw-folder');
  // A tree large enough that subscribing and reconciling take a while.
  for (let i = 0; i < 400; i++) {
    await mkdir(join(folder.dir, `old${i % 40}`, `sub${i}`), { recursive: true });
    await writeFile(join(folder.dir, `old${i % 40}`, `sub${i}`, 'a.md'), note(`swold${i}k`));
  }
  const engine = await openEngine({ home: home.dir });
  try {
    engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2', 'watch.debounce_ms': 50 });
    await engine.addFolder({ path: folder.dir });
    await indexNow(engine, folder.dir, 'create');
    // Directories appear one after another while live updates start and the reconcile runs.
    const made: string[] = [];
    const creator = (async () => {
      for (let i = 0; i < 80; i++) {
        const dir = join(folder.dir, `new${i}`);
        await mkdir(dir);
        await writeFile(join(dir, 'first.md'), note(`swfirst${i}k`));
        made.push(dir);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await engine.startLiveUpdates();
    await creator;
    await eventually(
      'the start-up reconcile',
      async () => ((await engine.folders())[0].state === 'fresh' ? true : undefined),
      120_000,
    );
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 1500));
      await engine.idle();
    }
    // Every directory made during start-up now gets a second file: each must be applied.
    for (let i = 0; i < made.length; i++) await writeFile(join(made[i], 'second.md'), note(`swsecond${i}k`));
    const missing: string[] = [];
    for (let i = 0; i < made.length; i++) {
      const res = await engine.search({
        query: `swsecond${i}k`,
        mode: 'sparse',
        top_k: 5,
        freshness: 'wait_for_fresh',
      });
      if (!res.hits.some((h) => h.path === join(made[i], 'second.md'))) missing.push(made[i]);
    }
    assert.deepEqual(
      missing,
      [],
      `${missing.length} of ${made.length} directories made during start-up are not watched`,
    );
    assert.equal(made.length, 80);
  } finally {
    await engine.close();
    await home.cleanup();
    await folder.cleanup();
  }
});

test(
  'a folder is not fresh before its start-up reconcile has finished; wait_for_fresh waits for it',
  { timeout: 300_000 },
  async () => {
    const home = await tempDir('sr-home');
    const folder = await tempDir('sr-folder');
    try {
      for (let i = 0; i < 300; i++) await writeFile(join(folder.dir, `n${i}.md`), note(`srold${i}k`));
      let engine = await openEngine({ home: home.dir });
      engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
      await engine.addFolder({ path: folder.dir });
      await indexNow(engine, folder.dir, 'create');
      await engine.close();
      // Changed while no engine ran.
      await writeFile(join(folder.dir, 'n7.md'), note('srwhilestoppedk'));
      engine = await openEngine({ home: home.dir, serving: true });
      try {
        const [before] = await engine.folders();
        assert.notEqual(before.state, 'fresh', `fresh before any reconcile: ${JSON.stringify(before.freshness)}`);
        const started = engine.startLiveUpdates();
        const [during] = await engine.folders();
        assert.notEqual(during.state, 'fresh', JSON.stringify(during.freshness));
        const res = await engine.search({
          query: 'srwhilestoppedk',
          mode: 'sparse',
          top_k: 5,
          freshness: 'wait_for_fresh',
        });
        assert.deepEqual(
          res.hits.map((h) => h.path),
          [join(folder.dir, 'n7.md')],
        );
        await started;
        // Control: once reconciled, the folder does read fresh.
        await engine.idle();
        const [after] = await engine.folders();
        assert.equal(after.state, 'fresh', JSON.stringify(after.freshness));
      } finally {
        await engine.close();
      }
    } finally {
      await home.cleanup();
      await folder.cleanup();
    }
  },
);
