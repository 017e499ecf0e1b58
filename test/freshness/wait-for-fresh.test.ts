// wait_for_fresh is exact: it waits until the watcher has seen every change made before the call
// (a sentinel round trip through the same native watcher), then for those pending changes to be
// applied. No grace period is guessed, so a search right after a write must see the write, round
// after round, whatever the debounce setting, and without one nothing stale may slip through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';

const note = (tok: string) => `# Log\n\nentry ${tok} by the river\n`;

async function fresh(engine: Engine, tok: string): Promise<string[]> {
  const res = await engine.search({ query: tok, mode: 'sparse', top_k: 20, freshness: 'wait_for_fresh' });
  return [...new Set(res.hits.map((h) => h.path))];
}

for (const debounce of [0, 1500]) {
  test(
    `a search with wait_for_fresh right after each write sees it (debounce ${debounce} ms)`,
    { timeout: 300_000 },
    async () => {
      const home = await tempDir('wff-home');
      const folder = await tempDir('wff-folder');
      const engine = await openEngine({ home: home.dir });
      try {
        // Text only (this hub id is not available offline).
        engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2', 'watch.debounce_ms': debounce });
        await writeFile(join(folder.dir, 'base.md'), note('wffbasek'));
        await engine.addFolder({ path: folder.dir });
        await indexNow(engine, folder.dir, 'create');
        await engine.startLiveUpdates();
        await engine.idle();
        const rounds = debounce === 0 ? 12 : 4;
        for (let i = 0; i < rounds; i++) {
          const path = join(folder.dir, `n${i % 3}.md`);
          // A new file or an edit (the same three names come round again), then at once a search.
          await writeFile(path, note(`wffr${i}k`));
          assert.deepEqual(await fresh(engine, `wffr${i}k`), [path], `round ${i}: the write was not waited for`);
          if (i >= 3)
            assert.deepEqual(
              await fresh(engine, `wffr${i - 3}k`),
              [],
              `round ${i}: the overwritten text still answers`,
            );
          const [st] = await engine.folders();
          assert.equal(st.freshness.pending_changes, 0, `round ${i}: answered with changes pending`);
        }
        await rm(join(folder.dir, 'base.md'));
        assert.deepEqual(await fresh(engine, 'wffbasek'), [], 'a deleted file still answers');
      } finally {
        await engine.close();
        await home.cleanup();
        await folder.cleanup();
      }
    },
  );
}
