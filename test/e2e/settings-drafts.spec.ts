// A list being edited is the person's until they save or the engine's value of that same setting
// changes: the save of another setting (a switch) landing after the edit must not reset it. The
// switch's PATCH is held by the test so that it lands after the edit every time (in CI it did once
// by chance, and the emptied host list was saved back as it was).
import { expect, openWorkbench, test } from './fixtures.js';

test.use({ engineScope: 'settings-drafts' });

test('a switch saved while an allowlist is being edited leaves the edit as typed', async ({ page, engine }) => {
  await openWorkbench(page, engine);
  const hosts = page.getByTestId('allowed-hosts');
  const edited = 'localhost:*\n127.0.0.1:*\nedited.example:*';
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/settings', async (route) => {
    if (route.request().method() === 'PATCH' && (route.request().postData() ?? '').includes('require_api_key'))
      await held;
    await route.continue();
  });
  const switchSaved = page.waitForResponse(
    (r) => r.url().includes('/api/settings') && r.request().method() === 'PATCH',
  );
  await page.getByTestId('toggle-require-key').click();
  await hosts.fill(edited);
  release();
  await switchSaved;
  // The answer is rendered (the switch shows the saved value) before the field is read.
  await expect(page.getByTestId('toggle-require-key')).toBeChecked();
  await expect(hosts).toHaveValue(edited);
  // And the edit kept is what the save sends.
  await page.getByTestId('save-allowlists').click();
  await expect
    .poll(
      async () =>
        (await engine.api<{ values: Record<string, unknown> }>('GET', '/api/settings')).values['mcp.allowed_hosts'],
    )
    .toEqual(['localhost:*', '127.0.0.1:*', 'edited.example:*']);
});
