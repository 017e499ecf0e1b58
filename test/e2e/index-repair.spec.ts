// Damage found while serving, as a person sees it: the data files of the chunks table are cut
// short under the running engine, an edit's write meets it (or a maintenance pass does; either
// names it), and the index panel says the index is damaged and being repaired, then that it was
// repaired and where the damaged copy was kept. The control: the same panel before the damage
// shows no such notice. A search alone does not meet this damage: the sparse leg answers from its
// in-memory copy of what the index held (index/sparse-memory.ts), which the truncation does not
// reach; the test checks that too, so a change there is seen.
// The files are cut to a stub: a read through LanceDB's cached file metadata fails as surely as
// a first open does.
import { mkdtempSync, mkdirSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineStatus } from '../../main/common/index.js';
import { expect, openWorkbench, shootCommitted, test } from './fixtures.js';

test.use({ engineScope: 'index-repair' });

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test('damage found while serving is named, repaired in place, and said so', async ({ page, engine }) => {
  const folder = join(mkdtempSync(join(tmpdir(), 'cairn-e2e-repair-')), 'notes');
  mkdirSync(folder);
  for (let i = 0; i < 12; i++)
    writeFileSync(join(folder, `note-${i}.md`), `# Note ${i}\n\nGardening weather, frost dates and seed trays ${i}.\n`);
  await engine.api('POST', '/api/folders', { path: folder, text_only: true });
  const status = () => engine.api<EngineStatus>('GET', '/api/status');
  await expect.poll(async () => (await status()).folders[0]?.state, { timeout: 120_000 }).toBe('fresh');

  await openWorkbench(page, engine);
  await expect(page.getByTestId('folders')).toContainText('notes');
  await expect(page.getByTestId('index-repair')).toHaveCount(0);

  for (const f of filesUnder(join(engine.home, 'index', 'chunks.lance', 'data'))) truncateSync(f, 16);
  const before = await engine.api<{ hits: unknown[] }>('POST', '/api/search', {
    query: 'gardening weather',
    mode: 'sparse',
  });
  expect(before.hits.length).toBeGreaterThan(0);
  expect((await status()).index_repair ?? null).toBeNull();

  // The edit's update replaces the note's rows: its write reads the damaged table. The update is
  // also asked for, as the folder's Update does, so that the test does not rest on the watcher
  // alone (watching has its own tests); whichever job writes first meets the damage.
  writeFileSync(join(folder, 'note-3.md'), '# Note 3\n\nGardening weather, frost dates and a new cold frame.\n');
  await engine.api('POST', '/api/folders/index', { path: folder, kind: 'update' });
  await expect
    .poll(async () => (await status()).index_repair?.damage.code ?? null, { timeout: 120_000 })
    .toBe('index_corrupt');

  const notice = page.getByTestId('index-repair');
  await expect(notice).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(notice).toContainText('repaired');
  await expect(notice).toContainText('index.corrupt-');
  await shootCommitted(page, 'index-repaired', 'panel-index');
  const after = await engine.api<{ hits: unknown[] }>('POST', '/api/search', {
    query: 'gardening weather',
    mode: 'sparse',
  });
  expect(after.hits.length).toBeGreaterThan(0);
});
