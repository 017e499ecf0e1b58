// Component tests: one workbench component at a time, its inputs written out by a scene
// (harness/scenes.tsx), its output and behaviour read in a real Chromium.
import { test, expect } from './harness-server';

test('ErrorNote: a title in words, the message, what to do, and the code last', async ({ page, show }) => {
  await show('error-with-remedy');
  const note = page.getByTestId('error');
  await expect(note).toHaveAttribute('role', 'alert');
  await expect(note).toHaveAttribute('data-code', 'disk_full');
  await expect(note.locator('p').first()).toHaveText('The disk is full. No space left while writing the index.');
  await expect(page.getByTestId('error-remedy')).toHaveText('What to do: Free some space; indexing resumes by itself.');
  await expect(note.locator('.error-code')).toHaveText('code: disk_full');
});

test('ErrorNote: no title when the message already gives the verdict; a generic one for an unmapped code', async ({
  page,
  show,
}) => {
  await show('error-with-verdict');
  await expect(page.getByTestId('verdict').locator('p').first()).toHaveText('Not saved: mcp.port must be 1..65535.');
  await expect(page.getByTestId('verdict-remedy')).toHaveCount(0);
  // Control: a message without the verdict gets the title in front (above) and an unmapped code "Failed".
  await show('error-unknown-code');
  await expect(page.getByTestId('error').locator('p').first()).toHaveText('Failed. grep ran out of time.');
});

test('SettingSwitch: shows the asked state while saving, keeps it when saved, snaps back when refused', async ({
  page,
  show,
}) => {
  await show('switch');
  const box = page.getByTestId('switch');
  await expect(box).not.toBeChecked();
  await box.click();
  await expect(box).toBeChecked();
  await expect(box).toBeDisabled();
  await expect(box).toHaveAttribute('aria-busy', 'true');
  await page.evaluate(() => window.settleSave!(false));
  await expect(box).not.toBeChecked();
  await expect(box).toBeEnabled();
  // Control: the same click, accepted, stays checked.
  await box.click();
  await page.evaluate(() => window.settleSave!(true));
  await expect(box).toBeEnabled();
  await expect(box).toBeChecked();
  expect(await page.evaluate(() => window.saves)).toEqual([true, true]);
});

test('CopyButton: the text reaches the clipboard and the button says so', async ({ page, show }) => {
  await show('copy');
  await page.getByTestId('copy').click();
  await expect(page.getByTestId('copy')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('cairn_key_to_copy');
  await expect(page.getByTestId('copy')).toHaveText('Copy', { timeout: 5000 });
});

test('JobsList: newest eight first, the actions each state allows, a failure with its code', async ({ page, show }) => {
  await show('jobs');
  const rows = page.getByTestId('job-row');
  await expect(rows).toHaveCount(8);
  await expect(rows.nth(0)).toContainText('/data/folder-22');
  await expect(rows.nth(0)).toHaveAttribute('data-state', 'failed');
  await expect(rows.nth(0)).toContainText('(disk_full: no space)');
  const running = rows.filter({ hasText: '/data/folder-20' });
  await expect(running.getByRole('button')).toHaveText(['Pause', 'Cancel']);
  await expect(running).toContainText('computing vectors: 1,584 of 30,818 chunks (52 of 425 files)');
  // The running job names the file being embedded, cut at the cell's end, whole on hover, and its ETA.
  const file = running.getByTestId('job-file');
  await expect(file).toHaveText('embedding docs/release-notes/2026/CHANGELOG-with-a-long-name.md');
  await expect(file).toHaveAttribute('title', 'embedding docs/release-notes/2026/CHANGELOG-with-a-long-name.md');
  expect(await file.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
  await expect(running.getByTestId('job-progress')).toContainText('about 4 min left');
  // The control: a paused job is not embedding anything now, so it names no file.
  const paused = rows.filter({ hasText: '/data/folder-21' });
  await expect(paused.getByTestId('job-progress')).toContainText('paused (computing vectors)');
  await expect(paused.getByTestId('job-file')).toHaveCount(0);
  await expect(rows.filter({ hasText: '/data/folder-21' }).getByRole('button')).toHaveText(['Resume', 'Cancel']);
  await expect(rows.filter({ hasText: '/data/folder-8' }).getByRole('button')).toHaveCount(0);
  // The oldest finished jobs fall off the list.
  await expect(rows.filter({ hasText: '/data/folder-0' })).toHaveCount(0);
});

test('JobsList: renders nothing without jobs', async ({ page, show }) => {
  await show('jobs-empty');
  await expect(page.getByTestId('host')).toBeEmpty();
  await expect(page.getByTestId('jobs')).toHaveCount(0);
});
