// A contract mismatch, shown with its remedy: index a folder with the built-in model, then set
// `embedding.model` to another registry model in config.json while Cairn is stopped (the workbench's
// switch would refuse a model it cannot download and check here). The stored vectors no longer
// match, so the index panel and the probe both show `embedding_contract_mismatch` with what to do.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineStatus } from '../../main/common/index.js';
import { expect, openWorkbench, shootPanel, test } from './fixtures.js';

test.use({ engineScope: 'contract-mismatch' });

test('switching the embedding model shows the contract mismatch and its remedy', async ({ page, engine }, info) => {
  const folder = join(mkdtempSync(join(tmpdir(), 'cairn-e2e-cm-')), 'notes');
  mkdirSync(folder);
  writeFileSync(join(folder, 'glacier.md'), '# Glaciers\n\nGlaciers carve fjords over thousands of years.\n');
  writeFileSync(join(folder, 'lighthouse.md'), '# Lighthouse\n\nThe lantern room needs copper flashing.\n');
  await engine.api('POST', '/api/folders', { path: folder });
  await expect
    .poll(async () => (await engine.api<EngineStatus>('GET', '/api/status')).folders[0]?.state, { timeout: 120_000 })
    .toBe('fresh');

  await openWorkbench(page, engine);
  await expect(page.getByTestId('contract-mismatch')).toHaveCount(0);
  await engine.stop();
  const file = join(engine.home, 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as { embedding?: Record<string, unknown> };
  writeFileSync(
    file,
    JSON.stringify({ ...config, embedding: { ...config.embedding, model: 'Xenova/all-MiniLM-L6-v2' } }),
  );
  await engine.restart();
  await page.reload();

  const mismatch = page.getByTestId('contract-mismatch');
  await expect(mismatch).toHaveAttribute('data-code', 'embedding_contract_mismatch');
  await expect(page.getByTestId('contract-mismatch-remedy')).toContainText(/index/i);
  await shootPanel(page, info, 'index');

  await page.getByTestId('probe-query').fill('glacier fjords');
  await page.getByTestId('probe-run').click();
  await expect(page.getByTestId('probe-result')).toHaveAttribute('data-ok', 'false', { timeout: 60_000 });
  const err = page.getByTestId('probe-result').getByTestId('probe-error');
  await expect(err).toHaveAttribute('data-code', 'embedding_contract_mismatch');
  await expect(err.getByTestId('probe-error-remedy')).toBeVisible();
  await shootPanel(page, info, 'probe');
});
