/**
 * The attacks of issue 4 §7 against a real server on loopback, each answered as the spec says and
 * running no tool: every attack request calls `index_update`, whose job would show in the engine.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { connect as netConnect } from 'node:net';
import { startHttpServer } from '../../main/engine/http/server.js';
import { FileApiKeyStore } from '../../main/engine/http/api-key-store.js';
import { startFixture, INIT, MCP_HEADERS, toolCall, type Fixture } from '../mcp/fixtures.js';

let fx: Fixture;
let host: string;

before(async () => {
  fx = await startFixture({ 'mcp.toolset': 'full', 'mcp.max_body_bytes': 4096 });
  host = new URL(fx.server.url).host;
});

after(async () => {
  await fx.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request: unlike fetch, it can forge Host and send any body framing. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  chunked = false,
): Promise<Raw> {
  const url = new URL(fx.server.url);
  const all: Record<string, string> = { host, ...headers };
  // An empty Host means none at all (node:http would otherwise fill in its own).
  const setHost = all.host !== '';
  if (!setHost) delete all.host;
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: all, setHost }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    if (body !== undefined) {
      if (chunked) {
        const buf = Buffer.from(body);
        for (let i = 0; i < buf.length; i += 1000) req.write(buf.subarray(i, i + 1000));
      } else req.write(body);
    }
    req.end();
  });
}

const attackBody = () => JSON.stringify(toolCall(1, 'index_update', { path: fx.data }));
const mcpPath = () => new URL(fx.mcpUrl).pathname;

function assertJsonRpcError(r: Raw, status: number): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.body}`);
  const body = JSON.parse(r.body) as { jsonrpc: string; error: { code: number; message: string } };
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(typeof body.error.code, 'number');
  assert.ok(body.error.message.length > 0);
}

async function noToolRan(fn: () => Promise<void>): Promise<void> {
  const before = fx.engine.jobs().length;
  await fn();
  await fx.engine.idle();
  assert.equal(fx.engine.jobs().length, before, 'no tool ran (no index job was created)');
}

test('control: a well-formed request runs the tool', async () => {
  const before = fx.engine.jobs().length;
  const r = await raw('POST', mcpPath(), MCP_HEADERS, attackBody());
  assert.equal(r.status, 200, r.body);
  await fx.engine.idle();
  assert.equal(fx.engine.jobs().length, before + 1, 'the control request created a job, so the check below can fail');
});

test('forged Host headers answer 403 with a JSON-RPC error', () =>
  noToolRan(async () => {
    for (const forged of [
      'evil.example',
      `evil.example:${new URL(fx.server.url).port}`,
      'localhost.evil.example:58012',
      '127.0.0.1.nip.io:58012',
      'localhost:1@evil.example',
      '',
    ]) {
      assertJsonRpcError(await raw('POST', mcpPath(), { ...MCP_HEADERS, host: forged }, attackBody()), 403);
    }
  }));

test('foreign Origin and Origin: null answer 403', () =>
  noToolRan(async () => {
    for (const origin of [
      'http://evil.example',
      'https://localhost.evil.example',
      'null',
      'http://127.0.0.1.evil.example:80',
    ]) {
      assertJsonRpcError(await raw('POST', mcpPath(), { ...MCP_HEADERS, origin }, attackBody()), 403);
    }
  }));

test('a cross-site text/plain POST is refused (403 with a foreign Origin, 415 without one)', () =>
  noToolRan(async () => {
    const headers = { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' };
    assertJsonRpcError(await raw('POST', mcpPath(), { ...headers, origin: 'http://evil.example' }, attackBody()), 403);
    assertJsonRpcError(await raw('POST', mcpPath(), headers, attackBody()), 415);
    assertJsonRpcError(await raw('POST', mcpPath(), { ...headers, origin: `http://${host}` }, attackBody()), 415);
    assertJsonRpcError(
      await raw(
        'POST',
        mcpPath(),
        { ...MCP_HEADERS, 'content-type': 'application/x-www-form-urlencoded' },
        attackBody(),
      ),
      415,
    );
  }));

test('JSON array body 400; invalid JSON 400; oversized body 413 (declared and chunked)', () =>
  noToolRan(async () => {
    assertJsonRpcError(await raw('POST', mcpPath(), MCP_HEADERS, JSON.stringify([JSON.parse(attackBody())])), 400);
    assertJsonRpcError(await raw('POST', mcpPath(), MCP_HEADERS, '{"jsonrpc":'), 400);
    const big = JSON.stringify({ ...JSON.parse(attackBody()), pad: 'x'.repeat(5000) });
    assertJsonRpcError(await raw('POST', mcpPath(), MCP_HEADERS, big), 413);
    assertJsonRpcError(
      await raw('POST', mcpPath(), { ...MCP_HEADERS, 'transfer-encoding': 'chunked' }, big, true),
      413,
    );
  }));

test('an unsupported MCP-Protocol-Version answers 400', () =>
  noToolRan(async () => {
    assertJsonRpcError(
      await raw('POST', mcpPath(), { ...MCP_HEADERS, 'mcp-protocol-version': '1999-01-01' }, attackBody()),
      400,
    );
    assertJsonRpcError(
      await raw('POST', mcpPath(), { ...MCP_HEADERS, 'mcp-protocol-version': '1999-01-01' }, JSON.stringify(INIT)),
      400,
    );
  }));

test('GET and DELETE answer 405 in stateless mode; other methods too', () =>
  noToolRan(async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const r = await raw(method, mcpPath(), { accept: 'text/event-stream' });
      assertJsonRpcError(r, 405);
      assert.ok(r.headers.allow);
    }
  }));

test('API key: missing, wrong and near-miss keys answer 401 with WWW-Authenticate: Bearer', async () => {
  const key = await fx.apiKeys.rotate();
  fx.engine.settings.set({ 'mcp.require_api_key': true });
  try {
    await noToolRan(async () => {
      const nearMisses = [
        undefined,
        'Bearer wrong-key-wrong-key-wrong-key',
        `Bearer ${key.slice(0, -1)}`,
        `Bearer ${key.slice(0, -1)}${key.at(-1) === 'A' ? 'B' : 'A'}`,
        `Bearer ${key}x`,
        `Bearer ${key.toUpperCase()}`,
        `Basic ${Buffer.from(`user:${key}`).toString('base64')}`,
        key,
        `Bearer`,
      ];
      for (const auth of nearMisses) {
        const r = await raw(
          'POST',
          mcpPath(),
          { ...MCP_HEADERS, ...(auth === undefined ? {} : { authorization: auth }) },
          attackBody(),
        );
        assertJsonRpcError(r, 401);
        assert.match(String(r.headers['www-authenticate']), /^Bearer/);
      }
    });
    // The key is never accepted in the URL, not even together with a valid header.
    await noToolRan(async () => {
      for (const param of ['key', 'api_key', 'token']) {
        const r = await raw(
          'POST',
          `${mcpPath()}?${param}=${encodeURIComponent(key)}`,
          { ...MCP_HEADERS, authorization: `Bearer ${key}` },
          attackBody(),
        );
        assertJsonRpcError(r, 400);
      }
      assertJsonRpcError(
        await raw('POST', `${mcpPath()}?api_key=${encodeURIComponent(key)}`, MCP_HEADERS, attackBody()),
        400,
      );
    });
    const ok = await raw('POST', mcpPath(), { ...MCP_HEADERS, authorization: `Bearer ${key}` }, JSON.stringify(INIT));
    assert.equal(ok.status, 200, 'the right key works');
  } finally {
    fx.engine.settings.set({ 'mcp.require_api_key': false });
  }
});

test('*:* must be chosen explicitly and is reported as a warning', async () => {
  const status = async () =>
    (await (await fx.admin('GET', '/api/mcp/status')).json()) as { security: { warnings: string[] } };
  assert.deepEqual((await status()).security.warnings, []);
  fx.engine.settings.set({ 'mcp.allowed_hosts': ['*:*'] });
  try {
    assert.ok((await status()).security.warnings.some((w) => w.includes('*:*')));
    const r = await raw('POST', mcpPath(), { ...MCP_HEADERS, host: 'anything.example:1234' }, JSON.stringify(INIT));
    assert.equal(r.status, 200, 'the explicit wildcard admits any host');
  } finally {
    fx.engine.settings.set({ 'mcp.allowed_hosts': ['localhost:*', '127.0.0.1:*', '[::1]:*'] });
  }
});

test('turning rebinding protection off is explicit and reported as a warning; the admin API keeps its checks', async () => {
  fx.engine.settings.set({ 'mcp.enable_dns_rebinding_protection': false });
  try {
    const st = (await (await fx.admin('GET', '/api/mcp/status')).json()) as {
      security: { dns_rebinding_protection: boolean; warnings: string[] };
    };
    assert.equal(st.security.dns_rebinding_protection, false);
    assert.ok(st.security.warnings.some((w) => /rebinding/i.test(w)));
    assert.equal(
      (await raw('POST', mcpPath(), { ...MCP_HEADERS, host: 'rebound.example:80' }, JSON.stringify(INIT))).status,
      200,
    );
    const admin = await raw('GET', '/api/mcp/status', {
      host: 'rebound.example:80',
      authorization: `Bearer ${fx.adminToken}`,
    });
    assert.equal(admin.status, 403, 'the admin API always checks Host');
  } finally {
    fx.engine.settings.set({ 'mcp.enable_dns_rebinding_protection': true });
  }
});

test('the listening socket is loopback only, and a non-loopback bind is refused without the opt-in and a key', async () => {
  const addr = new URL(fx.server.url);
  assert.equal(addr.hostname, '127.0.0.1');
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  if (external) {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const s = netConnect({ host: external, port: Number(addr.port) }, () => {
        s.destroy();
        resolve(null);
      });
      s.on('error', (e) => resolve(e));
    });
    assert.equal(err?.code, 'ECONNREFUSED', `not reachable on ${external}`);
  }
  const opts = {
    host: '0.0.0.0',
    port: 0,
    adminToken: 'x'.repeat(32),
    apiKeyStore: new FileApiKeyStore(fx.root, {}),
    stdioCommand: ['cairn'],
  };
  await assert.rejects(startHttpServer(fx.engine, opts), (e: { code?: string }) => e.code === 'config_invalid');
  fx.engine.settings.set({ 'mcp.allow_non_loopback': true });
  try {
    await assert.rejects(
      startHttpServer(fx.engine, opts),
      (e: { code?: string; message: string }) => e.code === 'config_invalid' && /API key/.test(e.message),
    );
  } finally {
    fx.engine.settings.set({ 'mcp.allow_non_loopback': false });
  }
});
