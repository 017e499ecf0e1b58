// The multi-user notice (issue 12 §11) against a real `cairn serve`: with the key off and other
// accounts able to log in (this machine's /etc/passwd, as the engine reads it), the MCP status
// card warns and one click generates a key and requires it; the notice is then gone.
import type { McpStatus } from '../../main/common/index.js';
import { expect, openWorkbench, test } from './fixtures.js';

test.use({ engineScope: 'multi-user' });

test('key off on a shared machine: the status card warns, and "Require the API key" fixes it in one click', async ({
  page,
  engine,
}) => {
  const before = await engine.api<McpStatus>('GET', '/api/mcp/status');
  test.skip(
    before.security.other_login_users.length === 0,
    'no other login accounts on this machine, so no notice to show',
  );
  expect(before.security.key_off_with_other_users).toBe(true);
  await openWorkbench(page, engine);
  const notice = page.getByTestId('multi-user-warning');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(before.security.other_login_users[0]);
  await page.getByTestId('require-key').click();
  await expect(notice).toBeHidden();
  const after = await engine.api<McpStatus>('GET', '/api/mcp/status');
  expect(after.security.require_api_key).toBe(true);
  expect(after.security.api_key_set).toBe(true);
  expect(after.security.key_off_with_other_users).toBe(false);
  // The key is really required now: MCP without it is refused.
  const res = await fetch(engine.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
    }),
  });
  expect(res.status).toBe(401);
});
