// Index management through the workbench: add with an exclude glob, re-index (a rebuild job shows
// in the jobs table and the folder returns to fresh), and remove after confirming.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, openWorkbench, test } from './fixtures.js';

test.use({ engineScope: 'index-actions' });

test('add with an exclude glob, re-index, remove', async ({ page, engine }) => {
  const folder = join(mkdtempSync(join(tmpdir(), 'cairn-e2e-ix-')), 'notes');
  mkdirSync(join(folder, 'drafts'), { recursive: true });
  writeFileSync(join(folder, 'kept.md'), '# Kept\n\nThe harbour master logs every arrival.\n');
  writeFileSync(join(folder, 'other.md'), '# Other\n\nTide tables for the northern pier.\n');
  writeFileSync(join(folder, 'drafts', 'skip.md'), '# Draft\n\nNot ready to be indexed.\n');

  await openWorkbench(page, engine);
  await page.getByLabel('Folder', { exact: true }).fill(folder);
  await page.getByRole('button', { name: 'Include/exclude globs' }).click();
  await page.getByTestId('folder-exclude').fill('drafts/**');
  await page.getByTestId('add-folder').click();
  const row = page.locator(`[data-testid="folder-row"][data-path="${folder}"]`);
  await expect(row).toHaveAttribute('data-state', 'fresh', { timeout: 120_000 });
  await expect(row.getByTestId('folder-counts')).toContainText('2 files');
  await expect(row).toContainText('exclude drafts/**');

  // Re-index reads and embeds everything again: it asks first (the control: dismissing starts nothing).
  page.once('dialog', (d) => void d.dismiss());
  await row.getByTestId('folder-rebuild').click();
  await expect(page.locator('[data-testid="job-row"]').filter({ hasText: 'rebuild' })).toHaveCount(0);
  let asked = '';
  page.once('dialog', (d) => {
    asked = d.message();
    void d.accept();
  });
  await row.getByTestId('folder-rebuild').click();
  await expect(page.locator('[data-testid="job-row"]').filter({ hasText: 'rebuild' })).toHaveCount(1);
  expect(asked).toContain('from scratch');
  await expect(row).toHaveAttribute('data-state', 'fresh', { timeout: 120_000 });
  await expect(page.locator('[data-testid="job-row"]').filter({ hasText: 'rebuild' })).toHaveAttribute(
    'data-state',
    'done',
    { timeout: 60_000 },
  );

  // Dismissing the confirmation keeps the folder; accepting removes it.
  page.once('dialog', (d) => void d.dismiss());
  await row.getByTestId('folder-remove').click();
  await expect(row).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await row.getByTestId('folder-remove').click();
  await expect(page.getByTestId('folder-row')).toHaveCount(0);
  await expect(page.getByTestId('empty')).toContainText('No folders yet');
});
