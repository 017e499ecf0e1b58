// The secret-file excludes are shown, not hidden: each folder row says how many credential files
// they kept out and lists the patterns (from the engine, the same sets the filter applies); a
// folder with include_secrets says its credentials are indexed instead (the control).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, openWorkbench, shootPanel, test } from './fixtures.js';

test.use({ engineScope: 'secret-excludes' });

function folderWithSecrets(name: string): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'cairn-e2e-sec-')), name);
  mkdirSync(join(folder, '.ssh'), { recursive: true });
  writeFileSync(join(folder, 'notes.md'), '# Notes\n\nThe harbour master logs every arrival.\n');
  writeFileSync(join(folder, '.env'), 'API_TOKEN=not-for-the-index\n');
  writeFileSync(join(folder, 'server.pem'), '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n');
  writeFileSync(join(folder, '.ssh', 'id_ed25519'), 'not a real key\n');
  return folder;
}

test('a folder row shows what the secret excludes kept out, and the patterns', async ({ page, engine }, info) => {
  const folder = folderWithSecrets('home');
  await openWorkbench(page, engine);
  await page.getByLabel('Folder', { exact: true }).fill(folder);
  await page.getByTestId('add-folder').click();
  const row = page.locator(`[data-testid="folder-row"][data-path="${folder}"]`);
  await expect(row).toHaveAttribute('data-state', 'fresh', { timeout: 120_000 });
  await expect(row.getByTestId('folder-counts')).toContainText('1 file');
  // .env and server.pem, and the .ssh folder (pruned as a whole).
  await expect(row.getByTestId('folder-secrets-summary')).toHaveText('Credential files left out: 3 files or folders');
  await row.getByTestId('folder-secrets-summary').click();
  const details = row.getByTestId('folder-secrets');
  for (const pattern of ['.ssh/', '*.pem', '.netrc', 'id_ed25519'])
    await expect(details.locator('code', { hasText: pattern }).first()).toBeVisible();
  await shootPanel(page, info, 'index');

  // Control: a folder that opted in says so instead.
  const open = folderWithSecrets('opted-in');
  await engine.api('POST', '/api/folders', { path: open, include_secrets: true });
  const openRow = page.locator(`[data-testid="folder-row"][data-path="${open}"]`);
  await expect(openRow.getByTestId('folder-secrets-summary')).toHaveText(
    'Credential files are indexed in this folder (include_secrets is on)',
    { timeout: 30_000 },
  );
});
