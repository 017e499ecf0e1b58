// No settings save through the workbench can lock the workbench out: the allowlist editor refuses
// (as the person types, and again on save) a list that would cut off this page, the CLI or MCP
// clients; a save forced past the editor is refused by the engine; after every attempt the page
// still loads and talks to the engine. A toolset change says it applies on remount and offers it.
import { expect, openWorkbench, shootCommitted, test } from './fixtures.js';

test.use({ engineScope: 'settings-safety' });
test.describe.configure({ mode: 'serial' });

test('an empty or narrowed Host allowlist is refused in words, and the workbench stays reachable', async ({
  page,
  engine,
}) => {
  await openWorkbench(page, engine);
  const hosts = page.getByTestId('allowed-hosts');
  const issues = page.getByTestId('panel-security').getByTestId('validation-issues');

  await hosts.fill('');
  await expect(issues).toContainText(`would refuse 127.0.0.1:${engine.port}`);
  await expect(issues).not.toContainText('^');
  await expect(page.getByTestId('save-allowlists')).toBeDisabled();
  await shootCommitted(page, 'error-allowlist-lockout', 'panel-security');

  // The page is open at 127.0.0.1: a list with only localhost would refuse the CLI and the probe.
  await hosts.fill('localhost:*');
  await expect(issues).toContainText('Keep 127.0.0.1:*');
  await expect(page.getByTestId('save-allowlists')).toBeDisabled();

  // Past the editor (a save the page would never send): the engine refuses it too.
  const forced = await page.evaluate(async (token) => {
    const r = await fetch('/api/settings', {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ values: { 'mcp.allowed_hosts': [] } }),
    });
    return r.status;
  }, engine.token);
  expect(forced).toBe(400);

  // A 1-based, quoted, pattern-free message for a malformed entry.
  await hosts.fill('localhost:*\n127.0.0.1:*\nbad host');
  await expect(issues).toContainText('entry 3 ("bad host")');

  // A narrowing that keeps the in-process address is saved.
  await hosts.fill('127.0.0.1:*');
  await expect(issues).toHaveCount(0);
  await page.getByTestId('save-allowlists').click();
  await expect
    .poll(
      async () =>
        (await engine.api<{ values: Record<string, unknown> }>('GET', '/api/settings')).values['mcp.allowed_hosts'],
    )
    .toEqual(['127.0.0.1:*']);

  // Protection off, an empty list saved; turning protection back on is refused with a sentence.
  await page.getByTestId('toggle-rebinding').uncheck();
  await hosts.fill('');
  await page.getByTestId('save-allowlists').click();
  await expect
    .poll(
      async () =>
        (await engine.api<{ values: Record<string, unknown> }>('GET', '/api/settings')).values['mcp.allowed_hosts'],
    )
    .toEqual([]);
  // click, not check: the refused save puts the box back, which is the point.
  await page.getByTestId('toggle-rebinding').click();
  await expect(page.getByTestId('panel-security').getByTestId('error')).toContainText('would refuse');
  await expect(page.getByTestId('toggle-rebinding')).not.toBeChecked();
  await expect(page.getByTestId('panel-security').getByTestId('error')).not.toContainText(/^config_invalid/);
  await shootCommitted(page, 'error-protection-on-empty-list', 'panel-security');

  // After all of it, the workbench still loads and talks to the engine, at both loopback names.
  await page.reload();
  await expect(page.getByTestId('mcp-state')).toHaveText('running');
  await page.goto(`http://localhost:${engine.port}/#token=${engine.token}`);
  await expect(page.getByTestId('mcp-state')).toHaveText('running');
  await engine.api('PATCH', '/api/settings', {
    values: {
      'mcp.allowed_hosts': ['localhost:*', '127.0.0.1:*', '[::1]:*'],
      'mcp.enable_dns_rebinding_protection': true,
    },
  });
});

test('a toolset change says it applies on remount, offers the remount, and the remount serves the new tools', async ({
  page,
  engine,
}) => {
  await openWorkbench(page, engine);
  await expect(page.getByTestId('toolset')).toContainText('agent (search, read)');
  await page.getByTestId('toolset-select').selectOption('full');
  await page.getByTestId('save-defaults').click();
  const saved = page.getByTestId('defaults-saved');
  await expect(saved).toContainText('after a remount');
  await expect(page.getByTestId('restart-pending')).toContainText('toolset=agent now');
  await shootCommitted(page, 'toolset-remount-pending', 'panel-defaults');
  await page.getByTestId('defaults-remount').click();
  await expect(page.getByTestId('toolset')).toContainText('grep');
  await expect(page.getByTestId('restart-pending')).toHaveCount(0);
  await expect(saved).toContainText('in use by the mounted server');
});

test('a page without a token shows one sign-in screen that says where the token is, and the token signs in', async ({
  page,
  engine,
}) => {
  await page.goto(engine.origin + '/');
  const login = page.getByTestId('login-screen');
  await expect(login).toBeVisible();
  await expect(login).toContainText('#token=');
  await expect(login).toContainText('data folder');
  // One screen, not a red "unauthorized" box per panel, and no panel waiting forever.
  await expect(page.getByTestId('error')).toHaveCount(0);
  await expect(page.getByText('Loading server status')).toHaveCount(0);
  await shootCommitted(page, 'error-no-token-login');
  // The control: a wrong token stays on the sign-in screen; the right one opens the workbench.
  await page.getByTestId('login-token').fill('not-the-token-at-all');
  await page.getByTestId('login-submit').click();
  await expect(login).toBeVisible();
  await page.getByTestId('login-token').fill(engine.token);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('mcp-state')).toHaveText('running');
  // The browser's own favicon request is answered (it was a 404 on every load).
  const icon = await fetch(`${engine.origin}/favicon.ico`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get('content-type')).toBe('image/x-icon');
});
