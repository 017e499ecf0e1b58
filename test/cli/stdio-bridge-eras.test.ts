/**
 * The shipped stdio door (`cairn mcp --stdio`, a bridge to the engine's HTTP endpoint) in both
 * protocol eras: every client kind (v2 pinned to 2026-07-28, v2 auto, v2 legacy, v1) launches
 * the real bin/cairn.mjs; the first starts the engine in the background, the others bridge to
 * it. Each gets its era, the tools, a search hit, a read and the typed errors through the bridge.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readLock } from '../../main/engine/lock.js';
import { dataPaths } from '../../main/engine/config/paths.js';
import { bodyHeaders } from '../../main/engine/mcp/stdio-bridge.js';
import { CLIENT_KINDS, EXPECTED_ERA, connectEra, type StdioLaunch } from '../mcp/era-clients.js';
import { indexedHome } from '../mcp/fixtures.js';
import { REPO } from '../helpers/cli.js';

let root: string;
let home: string;
let launch: StdioLaunch;

before(async () => {
  // The fixture indexed once per run, copied here (with outside.txt beside the folder).
  ({ root, home } = await indexedHome({ 'mcp.port': 0 }));
  launch = { command: process.execPath, args: [join(REPO, 'bin', 'cairn.mjs'), 'mcp', '--stdio'], env: { ...(process.env as Record<string, string>), CAIRN_HOME: home, LANCEDB_LOG: 'error' } };
});

after(async () => {
  const owner = await readLock(dataPaths(home).lock);
  if (owner) {
    process.kill(owner.pid, 'SIGTERM');
    for (let i = 0; i < 200 && (await readLock(dataPaths(home).lock)); i++) await sleep(100);
  }
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

test('2026 requests carry their version, method and name as headers; 2025 ones carry none from the body', () => {
  const modern = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
  assert.deepEqual(bodyHeaders(modern), { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search' });
  assert.equal(bodyHeaders({ ...modern, params: { ...modern.params, name: 'zoë' } })['mcp-name'], `=?base64?${Buffer.from('zoë').toString('base64')}?=`);
  assert.deepEqual(bodyHeaders({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }), {});
});

for (const kind of CLIENT_KINDS) {
  test(`cairn mcp --stdio, ${kind}: ${EXPECTED_ERA[kind]} era through the bridge, tools, search, read, typed errors`, async () => {
    const client = await connectEra(kind, { stdio: launch });
    try {
      assert.equal(client.era, EXPECTED_ERA[kind]);
      assert.deepEqual((await client.listTools()).map((t) => t.name), ['search', 'read']);
      const res = await client.callTool('search', { query: 'exponential backoff' });
      const hits = (res.structuredContent as { result: { hits: { path: string }[] } }).result.hits;
      assert.ok(hits[0].path.endsWith('retry.md'));
      const read = await client.callTool('read', { path: hits[0].path });
      assert.match(JSON.stringify(read.structuredContent), /five attempts/);
      const outside = await client.callTool('read', { path: join(root, 'outside.txt') });
      assert.equal((outside.structuredContent as { error: { code: string } }).error.code, 'path_outside_folders');
      assert.ok(!JSON.stringify(outside).includes('outside secret'));
      const bad = await client.callTool('search', { query: 'x', top_k: 0 });
      assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'invalid_argument');
    } finally {
      await client.close();
    }
  });
}
