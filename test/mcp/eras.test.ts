/**
 * Both protocol eras on the one HTTP endpoint, with real clients of each (v2 SDK pinned to
 * 2026-07-28 and in `auto`, v2 in 2025 `legacy` mode, v1 SDK): discover/initialize, tools/list,
 * search, read, typed errors and security refusals, each in both eras; then the wire rules of
 * 2026-07-28 (headers against the body, the unsupported-version error, cache hints) with raw
 * requests, each beside a well-formed control that passes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { request } from 'node:http';
import { CLIENT_KINDS, EXPECTED_ERA, connectEra, type EraClient } from './era-clients.js';
import { startFixture, MCP_HEADERS, INIT, type Fixture } from './fixtures.js';

let fx: Fixture;
before(async () => {
  fx = await startFixture({ 'mcp.toolset': 'full', 'mcp.max_body_bytes': 4096 });
});
after(async () => {
  await fx.close();
});

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernHeaders = (method: string, extra: Record<string, string> = {}) => ({
  ...MCP_HEADERS,
  'mcp-protocol-version': MODERN,
  'mcp-method': method,
  ...extra,
});
const modernBody = (method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = META) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } });

interface Rpc {
  status: number;
  body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

async function post(headers: Record<string, string>, body: string): Promise<Rpc> {
  const res = await fetch(fx.mcpUrl, { method: 'POST', headers, body });
  return { status: res.status, body: JSON.parse(await res.text()) as Rpc['body'] };
}

/** No index job may have run: every refused request below asks for `index_update`. */
async function noJobRan(fn: () => Promise<void>): Promise<void> {
  const before = fx.engine.jobs().length;
  await fn();
  assert.equal(fx.engine.jobs().length, before, 'a refused request ran no tool');
}

const errorCode = (r: { structuredContent?: unknown }) =>
  (r.structuredContent as { error?: { code: string } }).error?.code;

for (const kind of CLIENT_KINDS) {
  test(`${kind}: connects in the ${EXPECTED_ERA[kind]} era; tools/list, search, read and typed errors`, async () => {
    const client: EraClient = await connectEra(kind, { url: fx.mcpUrl });
    try {
      assert.equal(client.era, EXPECTED_ERA[kind]);
      if (client.era === 'modern') {
        assert.equal(client.protocolVersion, MODERN);
        assert.ok(client.discover?.supportedVersions.includes(MODERN), 'server/discover lists 2026-07-28');
      } else if (kind !== 'v1') {
        assert.equal(client.protocolVersion, '2025-11-25', 'initialize negotiated the newest 2025 revision');
      }
      assert.deepEqual(
        client.capabilities?.tools,
        { listChanged: false },
        'no list_changed is ever sent, so none is promised',
      );

      const tools = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        'grep',
        'index_drop',
        'index_status',
        'index_update',
        'read',
        'retrieve_context',
        'search',
        'semantic_search',
        'server_status',
      ]);
      assert.ok(!JSON.stringify(tools).includes('$ref'), 'flat schemas');
      assert.ok(!JSON.stringify(tools).includes('"$schema"'), 'no dialect stamp a draft-07 validator would refuse');

      const found = await client.callTool('search', { query: 'exponential backoff retries', top_k: 3 });
      assert.equal(found.isError, undefined);
      const hits = (found.structuredContent as { result: { hits: { path: string; start_line: number }[] } }).result
        .hits;
      assert.ok(hits[0].path.endsWith('retry.md'), hits.map((h) => h.path).join());

      const read = await client.callTool('read', { path: hits[0].path, start_line: 1, end_line: 3 });
      assert.equal(read.isError, undefined);
      assert.match(JSON.stringify(read.structuredContent), /exponential backoff/);

      const outside = await client.callTool('read', { path: join(fx.root, 'outside.txt') });
      assert.equal(outside.isError, true);
      assert.equal(errorCode(outside), 'path_outside_folders');
      assert.ok(!JSON.stringify(outside).includes('outside secret'), 'nothing of the file leaks');

      const bad = await client.callTool('search', { query: 'x', top_k: 0 });
      assert.equal(bad.isError, true);
      assert.equal(errorCode(bad), 'invalid_argument');

      const notIndexed = await client.callTool('index_update', { path: fx.evil });
      assert.equal(errorCode(notIndexed), 'path_outside_folders', 'an agent cannot widen what is indexed');
    } finally {
      await client.close();
    }
  });

  test(`${kind}: the API key and the Origin allowlist refuse it in its era, the right key lets it in`, async () => {
    const key = (await fx.apiKeys.get()) ?? (await fx.apiKeys.rotate());
    fx.engine.settings.set({ 'mcp.require_api_key': true });
    try {
      await noJobRan(async () => {
        await assert.rejects(connectEra(kind, { url: fx.mcpUrl }), `${kind} without a key is refused`);
        await assert.rejects(
          connectEra(kind, { url: fx.mcpUrl, headers: { authorization: 'Bearer wrong-key-wrong-key-wrong' } }),
          'a wrong key is refused',
        );
        await assert.rejects(
          connectEra(kind, {
            url: fx.mcpUrl,
            headers: { authorization: `Bearer ${key}`, origin: 'http://evil.example' },
          }),
          'a foreign Origin is refused even with the key',
        );
      });
      const client = await connectEra(kind, { url: fx.mcpUrl, headers: { authorization: `Bearer ${key}` } });
      assert.equal(client.era, EXPECTED_ERA[kind]);
      assert.ok((await client.listTools()).length > 0, 'control: the same client with the key works');
      await client.close();
    } finally {
      fx.engine.settings.set({ 'mcp.require_api_key': false });
    }
  });
}

/** A raw request with any Host (fetch cannot forge one). */
function rawPost(
  host: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(fx.mcpUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        headers: { ...headers, host },
        setHost: false,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('2026-07-28 requests get the same Host, body-size and one-message refusals, before any tool runs', () =>
  noJobRan(async () => {
    const call = modernBody('tools/call', { name: 'index_update', arguments: { path: fx.data } });
    const host = new URL(fx.mcpUrl).host;
    const forged = await rawPost('evil.example', modernHeaders('tools/call', { 'mcp-name': 'index_update' }), call);
    assert.equal(forged.status, 403, forged.body);
    const big = modernBody('tools/call', { name: 'index_update', arguments: { path: fx.data, pad: 'x'.repeat(5000) } });
    assert.equal((await rawPost(host, modernHeaders('tools/call', { 'mcp-name': 'index_update' }), big)).status, 413);
    const batch = `[${call}]`;
    assert.equal((await rawPost(host, modernHeaders('tools/call', { 'mcp-name': 'index_update' }), batch)).status, 400);
    // Control: the same Host and headers with a harmless, well-formed call pass.
    const ok = await rawPost(host, modernHeaders('tools/list'), modernBody('tools/list'));
    assert.equal(ok.status, 200, ok.body);
  }));

test('server/discover: 2026-07-28 listed, capabilities, instructions, an honest cache hint', async () => {
  const r = await post(modernHeaders('server/discover'), modernBody('server/discover'));
  assert.equal(r.status, 200);
  const result = r.body.result!;
  assert.deepEqual(result.supportedVersions, [MODERN]);
  assert.deepEqual((result.capabilities as { tools: unknown }).tools, { listChanged: false });
  assert.match(String(result.instructions), /never instructions to follow/);
  assert.ok((result.ttlMs as number) > 0, 'the discover result only changes on a remount');
});

test('tools/list: ttlMs in 2026-07-28 (the list changes only on a remount), none in 2025-era answers', async () => {
  const modern = await post(modernHeaders('tools/list'), modernBody('tools/list'));
  assert.equal(modern.status, 200);
  assert.equal(modern.body.result!.ttlMs, 5 * 60 * 1000);
  assert.equal(modern.body.result!.cacheScope, 'private');
  const legacy = await post(
    { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  );
  assert.equal(legacy.status, 200);
  assert.ok(Array.isArray(legacy.body.result!.tools));
  assert.equal(legacy.body.result!.ttlMs, undefined);
});

test('Mcp-Method and MCP-Protocol-Version must match the body (-32020); a modern body without the header is not served as legacy', async () => {
  const control = await post(modernHeaders('tools/list'), modernBody('tools/list'));
  assert.equal(control.status, 200, 'control: matching headers pass');
  const cases: [string, Record<string, string>, string][] = [
    [
      'Mcp-Method names another method',
      modernHeaders('tools/list'),
      modernBody('tools/call', { name: 'search', arguments: { query: 'x' } }),
    ],
    ['Mcp-Method missing', { ...MCP_HEADERS, 'mcp-protocol-version': MODERN }, modernBody('tools/list')],
    [
      'MCP-Protocol-Version names a 2025 revision',
      modernHeaders('tools/list', { 'mcp-protocol-version': '2025-11-25' }),
      modernBody('tools/list'),
    ],
    ['_meta but no MCP-Protocol-Version header', MCP_HEADERS, modernBody('tools/list')],
  ];
  for (const [why, headers, body] of cases) {
    const r = await post(headers, body);
    assert.equal(r.status, 400, why);
    assert.equal(r.body.error?.code, -32020, `${why}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.result, undefined, `${why}: no result`);
  }
  // The 2026 header without the envelope is malformed, not a 2025 request either.
  const noMeta = await post(
    modernHeaders('tools/list'),
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  );
  assert.equal(noMeta.status, 400);
  assert.equal(noMeta.body.error?.code, -32602);
});

test('an unsupported protocol version is -32022 with the supported list, in either request shape', async () => {
  const future = '2099-01-01';
  const modern = await post(
    modernHeaders('tools/list', { 'mcp-protocol-version': future }),
    modernBody('tools/list', {}, { ...META, 'io.modelcontextprotocol/protocolVersion': future }),
  );
  assert.equal(modern.body.error?.code, -32022);
  assert.deepEqual(modern.body.error?.data?.supported, [MODERN]);
  assert.equal(modern.body.error?.data?.requested, future);
  for (const body of [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), JSON.stringify(INIT)]) {
    const legacy = await post({ ...MCP_HEADERS, 'mcp-protocol-version': '1999-01-01' }, body);
    assert.equal(legacy.status, 400);
    assert.equal(legacy.body.error?.code, -32022);
    const supported = legacy.body.error?.data?.supported as string[];
    assert.ok(supported.includes(MODERN) && supported.includes('2025-11-25'), supported.join());
  }
  // Control: a known 2025 revision in the header is served.
  assert.equal(
    (
      await post(
        { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      )
    ).status,
    200,
  );
});

test('stateful mode serves sessions to 2025-era clients only; 2026-07-28 stays stateless on the same endpoint', async () => {
  fx.engine.settings.set({ 'mcp.stateless_http': false });
  await fx.server.restartMcp();
  try {
    const legacy = await connectEra('v1', { url: fx.mcpUrl });
    const modern = await connectEra('v2-pinned-2026', { url: fx.mcpUrl });
    assert.equal(modern.era, 'modern');
    const r = await fetch(fx.mcpUrl, {
      method: 'POST',
      headers: modernHeaders('tools/list'),
      body: modernBody('tools/list'),
    });
    assert.equal(r.headers.get('mcp-session-id'), null, 'no session for a 2026-07-28 request');
    await r.body?.cancel();
    const init = await fetch(fx.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
    assert.ok((init.headers.get('mcp-session-id') ?? '').length >= 40, 'control: initialize still opens a session');
    await init.body?.cancel();
    for (const c of [legacy, modern]) {
      const res = await c.callTool('search', { query: 'lighthouse budget', top_k: 1 });
      assert.ok(
        (res.structuredContent as { result: { hits: { path: string }[] } }).result.hits[0].path.endsWith('budget.md'),
      );
      await c.close();
    }
  } finally {
    fx.engine.settings.set({ 'mcp.stateless_http': true });
    await fx.server.restartMcp();
  }
});
