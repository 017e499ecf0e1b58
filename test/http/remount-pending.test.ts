/**
 * A saved setting that applies on remount (the toolset, the search defaults, the transport) shows
 * as pending, with the mounted and the saved value, until the server is remounted; the remount
 * then serves the new tools to a real MCP client.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SETTINGS } from '../../main/common/settings.js';
import type { McpStatus } from '../../main/common/status.js';
import { connect, startFixture, type Fixture } from '../mcp/fixtures.js';

let fx: Fixture;

before(async () => {
  fx = await startFixture();
});

after(async () => {
  await fx.close();
});

const status = async () => (await (await fx.admin('GET', '/api/mcp/status')).json()) as McpStatus;

async function toolList(): Promise<string[]> {
  const client = await connect(fx.mcpUrl);
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

test('a toolset change is pending until the remount, which then serves the new tools', async () => {
  assert.deepEqual((await status()).remount_pending, []);
  assert.equal((await fx.admin('PATCH', '/api/settings', { values: { 'mcp.toolset': 'full' } })).status, 200);
  const pending = await status();
  assert.deepEqual(pending.remount_pending, [{ key: 'mcp.toolset', mounted: 'agent', configured: 'full' }]);
  assert.deepEqual(await toolList(), ['read', 'search'], 'the mounted server keeps its tools until the remount');
  const remounted = (await (await fx.admin('POST', '/api/mcp/restart')).json()) as McpStatus;
  assert.deepEqual(remounted.remount_pending, []);
  assert.ok((await toolList()).includes('grep'), 'the remount serves the full toolset');
  fx.engine.settings.set({ 'mcp.toolset': 'agent' });
  await fx.server.restartMcp();
});

test('every setting says when it applies, and every remount setting is one the mount captures', async () => {
  for (const spec of SETTINGS) assert.ok(['live', 'remount', 'restart'].includes(spec.applies), spec.key);
  // remountPending throws for a remount setting the mount does not capture; status calls it.
  fx.engine.settings.set({ 'mcp.default_top_k': 7, 'mcp.json_response': false });
  const keys = (await status()).remount_pending.map((p) => p.key).sort();
  assert.deepEqual(keys, ['mcp.default_top_k', 'mcp.json_response']);
  fx.engine.settings.set({ 'mcp.default_top_k': 20, 'mcp.json_response': true });
  assert.deepEqual((await status()).remount_pending, []);
});
