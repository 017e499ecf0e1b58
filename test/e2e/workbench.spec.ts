// The workbench end to end against a real `cairn serve`: the token handling, adding a folder and
// watching it reach `fresh`, the probe, the search playground, the restart-pending notice and its
// remount, requiring a key and probing again, client snippets that match the server, the
// allowlist editor's validation, themes, and surviving an engine restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientConfig, McpStatus } from '../../main/common/index.js';
import { makeFixtureFolder } from '../helpers/fixtures.js';
import { expect, openWorkbench, shootPanel, test } from './fixtures.js';

test.use({ engineScope: 'workbench' });

test.describe.configure({ mode: 'serial' });

test('the admin token moves from the URL to sessionStorage; the status card shows the advertised URL', async ({
  page,
  engine,
}, info) => {
  await openWorkbench(page, engine);
  expect(page.url()).not.toContain('token=');
  expect(await page.evaluate(() => sessionStorage.getItem('cairn.adminToken'))).toBe(engine.token);
  await expect(page.getByTestId('advertised-url')).toHaveText(engine.mcpUrl);
  await expect(page.getByTestId('in-process-url')).toContainText(`${engine.origin}/mcp`);
  await expect(page.getByTestId('transport')).toContainText('stateless');
  await expect(page.getByTestId('security-summary')).toContainText('DNS-rebinding protection on');
  await expect(page.getByTestId('mounted-defaults')).toContainText('tribrid');
  await page.getByTestId('copy-advertised-url').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(engine.mcpUrl);
  // A reload keeps working without the token in the URL (it lives in sessionStorage).
  await page.reload();
  await expect(page.getByTestId('mcp-state')).toHaveText('running');
  await shootPanel(page, info, 'status');
});

test('without a token the page says how to get one instead of showing stale data', async ({ page, engine }) => {
  await page.goto(engine.origin + '/');
  await expect(page.getByTestId('login-screen')).toBeVisible();
});

test('add a fixture folder by path and watch it reach fresh', async ({ page, engine }, info) => {
  const fx = await makeFixtureFolder(mkdtempSync(join(tmpdir(), 'cairn-e2e-fx-')));
  // The fixture's size limit: its huge file (one 257 KB line) is over it and listed as skipped, so
  // the counts below are the fixture's own. Under the default 20 MB limit it would be indexed, and
  // chunked into thousands of model-window pieces.
  await engine.api('PATCH', '/api/settings', { values: { 'index.max_file_bytes': fx.maxFileBytes } });
  await openWorkbench(page, engine);
  await expect(page.getByTestId('empty')).toContainText('No folders yet');
  await page.getByLabel('Folder', { exact: true }).fill(fx.folder);
  await page.getByTestId('add-folder').click();
  const row = page.locator(`[data-testid="folder-row"][data-path="${fx.folder}"]`);
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-state', 'fresh', { timeout: 150_000 });
  await expect(row.getByTestId('folder-counts')).toContainText(`${fx.indexed.length} files`);
  await shootPanel(page, info, 'index');
  // A second add of the same folder is refused with a typed error, not a silent duplicate.
  await page.getByLabel('Folder', { exact: true }).fill(fx.folder);
  await page.getByTestId('add-folder').click();
  await expect(page.getByTestId('add-folder-error')).toBeVisible();
});

test('the probe succeeds over MCP and shows tools, latency and hits', async ({ page, engine }, info) => {
  await openWorkbench(page, engine);
  await page.getByLabel('Probe query').fill('invoice totals');
  await page.getByTestId('probe-run').click();
  const result = page.getByTestId('probe-result');
  await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 60_000 });
  await expect(page.getByTestId('probe-tools')).toContainText('search');
  await expect(page.getByTestId('probe-hits').locator('li').first()).toContainText('invoice');
  await shootPanel(page, info, 'probe');
});

test("the search playground runs any mode and shows each leg's rank", async ({ page, engine }, info) => {
  await openWorkbench(page, engine);
  await page.getByTestId('search-query').fill('parseInvoiceTotals');
  await page.getByTestId('search-mode').selectOption('hybrid');
  await page.getByTestId('search-run').click();
  await expect(page.getByTestId('search-result')).toContainText('mode hybrid');
  const first = page.getByTestId('search-hit').first();
  await expect(first).toContainText('invoice.ts');
  await expect(first.getByTestId('hit-legs')).toContainText(/sparse #\d+/);
  await page.getByTestId('search-mode').selectOption('sparse');
  await page.getByTestId('search-run').click();
  await expect(page.getByTestId('search-result')).toContainText('legs answered: sparse');
  await shootPanel(page, info, 'search');
});

test('changing the default mode raises the restart-pending notice; remounting clears it', async ({
  page,
  engine,
}, info) => {
  await openWorkbench(page, engine);
  await expect(page.getByTestId('restart-pending')).toHaveCount(0);
  await page.getByTestId('default-mode').selectOption('sparse');
  await page.getByTestId('default-top-k').fill('7');
  await page.getByTestId('save-defaults').click();
  const notice = page.getByTestId('restart-pending');
  await expect(notice).toContainText('default_mode=tribrid');
  await expect(notice).toContainText('default_top_k=20');
  await expect(notice).toContainText('default_mode=sparse');
  await expect(notice).toContainText('default_top_k=7');
  await shootPanel(page, info, 'status');
  await shootPanel(page, info, 'defaults');
  await page.getByTestId('remount').click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('mounted-defaults')).toContainText('sparse');
  const status = await engine.api<McpStatus>('GET', '/api/mcp/status');
  expect([status.default_mode, status.default_top_k, status.defaults_restart_pending]).toEqual(['sparse', 7, false]);
});

test('requiring an API key: generate, require, probe again with the key, snippets carry the header', async ({
  page,
  engine,
}, info) => {
  await openWorkbench(page, engine);
  await expect(page.getByTestId('api-key-state')).toHaveText(/No key is set/);
  await page.getByTestId('api-key-rotate').click();
  const value = page.getByTestId('api-key-value');
  await expect(value).toHaveValue(/.{16,}/);
  const key = await value.inputValue();
  await page.getByTestId('toggle-require-key').check();
  await expect(page.getByTestId('security-summary')).toContainText('API key required');
  // The MCP endpoint now refuses a request without the key...
  const bare = await fetch(engine.mcpUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(bare.status).toBe(401);
  // ...and the probe, which goes through the same endpoint with the stored key, still succeeds.
  await page.getByTestId('probe-query').fill('invoice');
  await page.getByTestId('probe-run').click();
  await expect(page.getByTestId('probe-result')).toHaveAttribute('data-ok', 'true', { timeout: 60_000 });
  // Reveal shows the same key; the client snippets mention the bearer header (placeholder by default).
  await page.getByTestId('api-key-hide').click();
  await page.getByTestId('api-key-reveal').click();
  await expect(page.getByTestId('api-key-value')).toHaveValue(key);
  await expect(page.getByTestId('client-cursor').getByTestId('client-snippet')).toContainText('Authorization');
  await shootPanel(page, info, 'security');
});

test("client snippets match the running server's advertised URL", async ({ page, engine }, info) => {
  await openWorkbench(page, engine);
  const status = await engine.api<McpStatus>('GET', '/api/mcp/status');
  const clients = await engine.api<ClientConfig[]>('GET', '/api/clients');
  expect(clients.map((c) => c.id).sort()).toEqual([
    'claude-code',
    'claude-desktop',
    'codex',
    'cursor',
    'gemini',
    'vscode',
    'windsurf',
  ]);
  for (const c of clients) {
    const card = page.getByTestId(`client-${c.id}`);
    await expect(card.getByTestId('client-snippet')).toHaveText(c.snippet);
    if (c.uses === 'http') await expect(card.getByTestId('client-snippet')).toContainText(status.advertised_url);
  }
  await page.getByTestId('copy-claude-code').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(clients.find((c) => c.id === 'claude-code')?.snippet);
  await shootPanel(page, info, 'clients');
});

test('allowlists: patterns are validated by the engine and *:* is warned against', async ({ page, engine }) => {
  await openWorkbench(page, engine);
  const hosts = page.getByTestId('allowed-hosts');
  await hosts.fill('localhost:*\nbad host/with slash');
  await expect(page.getByTestId('validation-issues')).toBeVisible();
  await expect(page.getByTestId('save-allowlists')).toBeDisabled();
  await hosts.fill('localhost:*\n127.0.0.1:*\n*:*');
  await expect(page.getByTestId('validation-issues')).toHaveCount(0);
  await expect(page.getByTestId('wildcard-warning')).toContainText('*:*');
  // Saved only on request: nothing changed on the engine yet.
  const values = (await engine.api<{ values: Record<string, unknown> }>('GET', '/api/settings')).values;
  expect(values['mcp.allowed_hosts']).toEqual(['localhost:*', '127.0.0.1:*', '[::1]:*']);
});

test('light and dark themes', async ({ page, engine }, info) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openWorkbench(page, engine);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('theme-select').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByTestId('theme-select').selectOption('dark');
  const path = info.outputPath('workbench-dark.png');
  await page.screenshot({ path, fullPage: true });
  await info.attach('workbench-dark', { path, contentType: 'image/png' });
});

test('keyboard: every control is reachable and focus is visible', async ({ page, engine }) => {
  await openWorkbench(page, engine);
  const seen = new Set<string>();
  // The panels come in first-run order (index, search, clients, then the server's): the probe is
  // further down than it used to be.
  for (let i = 0; i < 160; i++) {
    await page.keyboard.press('Tab');
    const tag = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const outline = getComputedStyle(el).outlineStyle;
      return `${el.tagName}:${el.getAttribute('data-testid') ?? el.id}:${outline}`;
    });
    seen.add(tag);
  }
  const list = [...seen];
  for (const id of ['folder-path', 'search-query', 'probe-run'])
    expect(
      list.some((t) => t.includes(id)),
      id,
    ).toBe(true);
  // No focused element hides its outline.
  expect(list.filter((t) => t.endsWith(':none') && !t.startsWith('BODY'))).toEqual([]);
});

test('the workbench survives an engine restart underneath it', async ({ page, engine }) => {
  await openWorkbench(page, engine);
  await engine.stop();
  await expect(page.getByTestId('reconnect-banner')).toBeVisible({ timeout: 20_000 });
  await engine.restart();
  await expect(page.getByTestId('reconnect-banner')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('mcp-state')).toHaveText('running');
  await expect(page.getByTestId('folder-row')).toHaveCount(1);
});
