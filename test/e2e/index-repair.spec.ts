// Damage found while serving, as a person sees it: a data file of the chunks table is cut in half
// under the running engine, a search meets it, and the index panel says the index is damaged and
// being repaired, then that it was repaired and where the damaged copy was kept. The control: the
// same panel before the damage shows no such notice.
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

  for (const f of filesUnder(join(engine.home, 'index', 'chunks.lance', 'data')))
    truncateSync(f, Math.floor(statSync(f).size / 2));
  const search = await engine.api('POST', '/api/search', { query: 'gardening weather', mode: 'sparse' }).then(
    () => 'answered',
    (err: Error) => err.message,
  );
  expect(search).toMatch(/index_corrupt/);

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
