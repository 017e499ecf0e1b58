// Engine-wide pause from the index panel (the same admin route the tray uses): while paused, a
// newly added folder's job waits and the status card says so; resuming lets it reach fresh.
// The switch is driven from the keyboard, as someone without a mouse would.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineStatus } from '../../main/common/status.js';
import { expect, openWorkbench, shootPanel, test } from './fixtures.js';

test.use({ engineScope: 'pause-indexing' });

test('pause all indexing, add a folder that waits, resume it to fresh', async ({ page, engine }, info) => {
  const folder = mkdtempSync(join(tmpdir(), 'cairn-e2e-pause-'));
  writeFileSync(join(folder, 'pier.md'), '# Pier\n\nThe ferry leaves the northern pier at noon.\n');

  await openWorkbench(page, engine);
  const toggle = page.getByTestId('pause-all');
  await expect(toggle).toHaveText('Pause indexing');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveText('Resume indexing');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('status-paused')).toHaveText('indexing paused');
  expect((await engine.api<EngineStatus>('GET', '/api/status')).paused).toBe(true);

  await page.getByLabel('Folder', { exact: true }).fill(folder);
  await page.getByTestId('add-folder').click();
  const row = page.locator(`[data-testid="folder-row"][data-path="${folder}"]`);
  await expect(row).toBeVisible();
  await expect(page.locator('[data-testid="job-row"]').filter({ hasText: folder })).toHaveAttribute(
    'data-state',
    'paused',
  );
  await expect(row).not.toHaveAttribute('data-state', 'fresh');
  await shootPanel(page, info, 'index');

  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).toHaveText('Pause indexing');
  await expect(page.getByTestId('status-paused')).toHaveCount(0);
  await expect(row).toHaveAttribute('data-state', 'fresh', { timeout: 120_000 });
  await expect(row.getByTestId('folder-counts')).toContainText('1 file ·');
  expect((await engine.api<EngineStatus>('GET', '/api/status')).paused).toBe(false);
});
