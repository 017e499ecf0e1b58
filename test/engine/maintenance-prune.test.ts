// The index on disk is the index: what a maintenance pass replaces (compacted fragments, rebuilt
// index segments) is kept only for the readers of the keep window, then deleted by the engine on
// its own, without another write to the folder. Before, it stayed until the next write: after a
// 42k-chunk ingest the folder held 80 MB for 41 MB of index.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../main/engine/engine.js';

const KEEP_MS = 4000;
let engine: Engine;
let home: string;
let cleanup: () => Promise<void>;
let folders: { dir: string; cleanup: () => Promise<void> };

before(async () => {
  folders = await tempDir('prune');
  ({ engine, home, cleanup } = await tempEngine(
    { 'watch.enabled': false },
    { maintenance: { keepVersionsMs: KEEP_MS } },
  ));
});

after(async () => {
  await cleanup?.();
  await folders?.cleanup();
});

/** Data files on disk and live fragments, per table: equal when nothing superseded is kept. */
async function layout(): Promise<Record<string, { files: number; fragments: number }>> {
  const dir = join(home, 'index');
  const db = await lancedb.connect(dir);
  const out: Record<string, { files: number; fragments: number }> = {};
  try {
    for (const name of ['chunks', 'docs']) {
      const t = await db.openTable(name);
      const fragments = (await t.stats()).fragmentStats.numFragments;
      t.close();
      out[name] = { files: (await readdir(join(dir, `${name}.lance`, 'data'))).length, fragments };
    }
  } finally {
    db.close();
  }
  return out;
}

const settled = (l: Awaited<ReturnType<typeof layout>>) => Object.values(l).every((t) => t.files === t.fragments);

test('what a maintenance pass replaced is deleted once the keep window has passed, with no write in between', async () => {
  const folder = join(folders.dir, 'notes');
  await mkdir(folder);
  await writeFile(join(folder, 'a.md'), '# Alpha\n\nFirst note about harbours and tides.\n');
  await engine.addFolder({ path: folder });
  await indexNow(engine, folder, 'create');
  // Separate jobs make separate fragments: the pass below compacts them.
  for (const [name, text] of [
    ['b.md', '# Beta\n\nSecond note, on lighthouses.\n'],
    ['c.md', '# Gamma\n\nThird note, on ferries and their timetables.\n'],
    ['a.md', '# Alpha\n\nFirst note, rewritten: harbours, tides and locks.\n'],
  ]) {
    await writeFile(join(folder, name), text);
    await indexNow(engine, folder, 'update');
  }
  await engine.runMaintenance();
  // The control: right after the pass its replaced files are still there (readers may hold them).
  const kept = await layout();
  assert.ok(!settled(kept), `the pass kept what it replaced for the window: ${JSON.stringify(kept)}`);
  let now = kept;
  // Bounded wait for the engine's own follow-up (window + debounce); no timing is asserted.
  for (let i = 0; i < 120 && !settled(now); i++) {
    await new Promise((r) => setTimeout(r, 500));
    now = await layout();
  }
  assert.ok(settled(now), `superseded files left on disk: ${JSON.stringify(now)}`);
  const hits = await engine.search({ query: 'lighthouses', mode: 'sparse' });
  assert.equal(hits.hits[0]?.path, join(folder, 'b.md'), 'the index still answers after the prune');
});
