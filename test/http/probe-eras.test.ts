/**
 * The probe and the restart-pending contract of `GET /api/mcp/status` in both protocol eras: the
 * probe runs in the era asked for (or negotiates), says which it used, and exercises the defaults
 * the mounted server captured, not the configured ones, until a restart remounts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpStatus, ProbeResult } from '../../main/common/status.js';
import { startFixture, type Fixture } from '../mcp/fixtures.js';
import { connectEra } from '../mcp/era-clients.js';

let fx: Fixture;
before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

const probe = async (body: Record<string, unknown>) => {
  const res = await fx.admin('POST', '/api/mcp/probe', body);
  return { status: res.status, body: (await res.json()) as ProbeResult };
};
const status = async () => (await (await fx.admin('GET', '/api/mcp/status')).json()) as McpStatus;

test('probe: auto negotiates 2026-07-28, modern pins it, legacy runs the 2025 handshake; each says so', async () => {
  const expected = {
    auto: ['modern', '2026-07-28'],
    modern: ['modern', '2026-07-28'],
    legacy: ['legacy', '2025-11-25'],
  } as const;
  for (const [era, [want, version]] of Object.entries(expected)) {
    const { status: code, body } = await probe({ query: 'exponential backoff', era });
    assert.equal(code, 200, `${era}: ${JSON.stringify(body)}`);
    assert.ok(body.ok);
    assert.equal(body.era, want, era);
    assert.equal(body.protocol_version, version, era);
    if (body.ok) assert.ok(body.hits[0].path.endsWith('retry.md'));
  }
  const noEra = await probe({ query: 'exponential backoff' });
  assert.equal(noEra.body.era, 'modern', 'without era the probe negotiates like a current client');
  const bad = await probe({ query: 'x', era: '2025' });
  assert.equal(bad.status, 400);
  assert.equal((bad.body as unknown as { error: { code: string; details: { key: string } } }).error.details.key, 'era');
});

test('the probe carries the key in both eras; a disabled endpoint is a typed 503 with no era connected', async () => {
  await fx.apiKeys.rotate();
  fx.engine.settings.set({ 'mcp.require_api_key': true });
  try {
    // The probe sends the stored key; a client without it is refused (control: the probe is not).
    for (const era of ['modern', 'legacy']) {
      assert.equal((await probe({ query: 'budget', era })).status, 200, `${era}: the probe sends the key`);
      await assert.rejects(
        connectEra(era === 'modern' ? 'v2-pinned-2026' : 'v1', { url: fx.mcpUrl }),
        `${era}: a client without the key is refused`,
      );
    }
    fx.engine.settings.set({ 'mcp.enabled': false });
    for (const era of ['modern', 'legacy']) {
      const off = await probe({ query: 'budget', era });
      assert.equal(off.status, 503, era);
      assert.equal(off.body.ok, false);
      if (!off.body.ok) assert.equal(off.body.error.code, 'dependency_unavailable');
      assert.equal(off.body.era, null, 'it never connected');
    }
  } finally {
    fx.engine.settings.set({ 'mcp.require_api_key': false, 'mcp.enabled': true });
  }
});

test('restart pending: both eras keep the mounted defaults until a restart, then both follow', async () => {
  fx.engine.settings.set({ 'mcp.default_top_k': 1 });
  await fx.admin('POST', '/api/mcp/restart');
  try {
    fx.engine.settings.set({ 'mcp.default_top_k': 3 });
    const pending = await status();
    assert.equal(pending.defaults_restart_pending, true);
    assert.equal(pending.default_top_k, 1);
    assert.equal(pending.config_default_top_k, 3);
    for (const era of ['modern', 'legacy']) {
      const p = (await probe({ query: 'the', era })).body;
      assert.ok(
        p.ok && p.hits.length === 1,
        `${era}: the probe searched with the mounted top_k 1 (${JSON.stringify(p)})`,
      );
    }
    const modern = await connectEra('v2-pinned-2026', { url: fx.mcpUrl });
    const count = async () =>
      ((await modern.callTool('search', { query: 'the' })).structuredContent as { result: { hits: unknown[] } }).result
        .hits.length;
    assert.equal(await count(), 1, 'a 2026-07-28 client sees the mounted default too');
    const restarted = (await (await fx.admin('POST', '/api/mcp/restart')).json()) as McpStatus;
    assert.equal(restarted.defaults_restart_pending, false);
    assert.equal(restarted.default_top_k, 3);
    assert.equal(await count(), 3, 'the same 2026-07-28 client, no reconnect: stateless requests follow the remount');
    await modern.close();
    for (const era of ['modern', 'legacy']) {
      const p = (await probe({ query: 'the', era })).body;
      assert.ok(p.ok && p.hits.length === 3, `${era}: after the restart the probe uses top_k 3`);
    }
  } finally {
    fx.engine.settings.set({ 'mcp.default_top_k': 20 });
    await fx.admin('POST', '/api/mcp/restart');
  }
});
