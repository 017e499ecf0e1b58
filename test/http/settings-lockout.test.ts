/**
 * No settings save through the admin API can lock the person out: after any patch (accepted,
 * refused, or confirmed), the admin API and the workbench still answer at this server's own
 * loopback address, the MCP endpoint still answers at the address the CLI and clients dial, and a
 * foreign Host is still refused (the control that shows the reachability checks can fail).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { request } from 'node:http';
import { defaultSettings } from '../../main/common/settings.js';
import type { ValidateResponse } from '../../main/common/admin.js';
import { INIT, MCP_HEADERS, startFixture, type Fixture } from '../mcp/fixtures.js';
import { seeded } from '../helpers/random.js';

let fx: Fixture;
let port: string;

before(async () => {
  fx = await startFixture();
  port = new URL(fx.server.url).port;
});

after(async () => {
  await fx.close();
});

/** A request with a Host of our choosing (fetch does not let a caller set Host). */
function raw(
  method: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const url = new URL(fx.server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method, path, headers: { host, ...headers }, setHost: false },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const auth = () => ({ authorization: `Bearer ${fx.adminToken}` });

async function assertReachable(label: string): Promise<void> {
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    assert.equal((await raw('GET', '/api/status', host, auth())).status, 200, `${label}: admin API at ${host}`);
    assert.notEqual((await raw('GET', '/', host)).status, 403, `${label}: workbench page at ${host}`);
  }
  const mcp = await raw('POST', '/mcp', `127.0.0.1:${port}`, MCP_HEADERS, INIT);
  assert.equal(mcp.status, 200, `${label}: MCP at the in-process address: ${mcp.text}`);
  // The control: the same checks do refuse a rebound name.
  assert.equal(
    (await raw('GET', '/api/status', `evil.example:${port}`, auth())).status,
    403,
    `${label}: a foreign Host is refused`,
  );
}

async function patch(
  values: Record<string, unknown>,
  confirm = false,
): Promise<{
  status: number;
  body: {
    error?: { code: string; message: string; details?: { issues: { rule: string; needs_confirmation?: boolean }[] } };
  };
}> {
  const res = await fx.admin('PATCH', '/api/settings', { values, ...(confirm ? { confirm: true } : {}) });
  return { status: res.status, body: (await res.json()) as never };
}

function reset(): void {
  const d = defaultSettings();
  const keys = [
    'mcp.allowed_hosts',
    'mcp.allowed_origins',
    'mcp.enable_dns_rebinding_protection',
    'mcp.public_base_url',
    'mcp.host',
    'mcp.port',
    'mcp.allow_non_loopback',
  ];
  fx.engine.settings.set(Object.fromEntries(keys.map((k) => [k, d[k]])));
}

test('an empty or narrowed Host allowlist is refused with a sentence naming the address it would cut off', async () => {
  for (const hosts of [[], ['example.com'], ['localhost:*'], ['127.0.0.1:1'], ['*.example:*']]) {
    const r = await patch({ 'mcp.allowed_hosts': hosts });
    assert.equal(r.status, 400, `${JSON.stringify(hosts)} refused`);
    assert.equal(r.body.error?.code, 'config_invalid');
    assert.match(r.body.error?.message ?? '', new RegExp(`127\\.0\\.0\\.1:${port}`), 'names the address');
    assert.doesNotMatch(r.body.error?.message ?? '', /\^|\$\//, 'no regular expression');
    assert.deepEqual(
      fx.engine.settings.get('mcp.allowed_hosts'),
      defaultSettings()['mcp.allowed_hosts'],
      'nothing written',
    );
    await assertReachable(JSON.stringify(hosts));
  }
  // A list that still admits the in-process address is saved (the rule is not "no change allowed").
  const ok = await patch({ 'mcp.allowed_hosts': ['127.0.0.1:*'] });
  assert.equal(ok.status, 200);
  await assertReachable('127.0.0.1:* only');
  reset();
});

test('turning DNS-rebinding protection back on over an empty list is refused; off, the list is not in force', async () => {
  const off = await patch({ 'mcp.enable_dns_rebinding_protection': false, 'mcp.allowed_hosts': [] });
  assert.equal(off.status, 200);
  await assertReachable('protection off, empty list');
  const on = await patch({ 'mcp.enable_dns_rebinding_protection': true });
  assert.equal(on.status, 400);
  assert.equal(fx.engine.settings.get('mcp.enable_dns_rebinding_protection'), false);
  reset();
});

test('a public base URL whose host the list refuses is not saved', async () => {
  const r = await patch({ 'mcp.public_base_url': 'http://cairn.test:9' });
  assert.equal(r.status, 400);
  assert.match(r.body.error?.message ?? '', /cairn\.test:9/);
  const withHost = await patch({
    'mcp.public_base_url': 'http://cairn.test:9',
    'mcp.allowed_hosts': ['127.0.0.1:*', 'cairn.test:9'],
  });
  assert.equal(withHost.status, 200);
  reset();
});

test('a page opened under another allowed name cannot remove that name (it would lock that page out)', async () => {
  fx.engine.settings.set({ 'mcp.allowed_hosts': ['127.0.0.1:*', 'cairn.test:*'] });
  const body = { values: { 'mcp.allowed_hosts': ['127.0.0.1:*'] } };
  const fromOther = await raw(
    'PATCH',
    '/api/settings',
    `cairn.test:${port}`,
    { ...auth(), 'content-type': 'application/json' },
    body,
  );
  assert.equal(fromOther.status, 400);
  assert.match(fromOther.text, /this page is open at cairn\.test/);
  const fromOwn = await raw(
    'PATCH',
    '/api/settings',
    `127.0.0.1:${port}`,
    { ...auth(), 'content-type': 'application/json' },
    body,
  );
  assert.equal(fromOwn.status, 200, 'the same save from the own address is fine');
  reset();
});

test('mcp.host 0.0.0.0 without mcp.allow_non_loopback is refused by the one validator (API and store)', async () => {
  const r = await patch({ 'mcp.host': '0.0.0.0' });
  assert.equal(r.status, 400);
  assert.equal(r.body.error?.details?.issues[0].rule, 'loopback_opt_in');
  assert.match(r.body.error?.message ?? '', /mcp\.allow_non_loopback/);
  assert.throws(() => fx.engine.settings.set({ 'mcp.host': '0.0.0.0' }), /not a loopback address/);
  assert.equal(fx.engine.settings.get('mcp.host'), '127.0.0.1');
  // Turning the opt-in off under a non-loopback host is the same rule from the other side.
  fx.engine.settings.set({ 'mcp.allow_non_loopback': true, 'mcp.host': '0.0.0.0' });
  assert.throws(() => fx.engine.settings.set({ 'mcp.allow_non_loopback': false }), /not a loopback address/);
  reset();
  await assertReachable('after host attempts');
});

test('a new port needs an explicit confirmation; a port held by another program is refused', async () => {
  const other = await new Promise<Server>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
  const busy = (other.address() as { port: number }).port;
  const held = await patch({ 'mcp.port': busy });
  assert.equal(held.status, 400);
  assert.equal(held.body.error?.details?.issues[0].rule, 'port_in_use');
  await new Promise((r) => other.close(r));

  const free = busy; // just released
  const unconfirmed = await patch({ 'mcp.port': free });
  assert.equal(unconfirmed.status, 409);
  assert.equal(unconfirmed.body.error?.code, 'conflict');
  assert.equal(unconfirmed.body.error?.details?.issues[0].needs_confirmation, true);
  assert.match(unconfirmed.body.error?.message ?? '', new RegExp(`127\\.0\\.0\\.1:${free}`));
  assert.equal(fx.engine.settings.get('mcp.port'), 58012, 'not written without the confirmation');
  const v = (await (
    await fx.admin('POST', '/api/settings/validate', { values: { 'mcp.port': free } })
  ).json()) as ValidateResponse;
  assert.equal(v.issues[0].needs_confirmation, true, 'validate shows it before the save');
  const confirmed = await patch({ 'mcp.port': free }, true);
  assert.equal(confirmed.status, 200);
  await assertReachable('port changed for the next start');
  reset();
});

test('property: no sequence of allowlist and protection saves leaves the workbench, the CLI or MCP unreachable', async () => {
  const candidates = [
    'localhost:*',
    '127.0.0.1:*',
    '[::1]:*',
    'example.com',
    `127.0.0.1:${port}`,
    '127.0.0.1:1',
    'cairn.test:*',
    '*.evil:*',
  ];
  const origins = ['http://localhost:*', 'http://127.0.0.1:*', 'https://example.com'];
  const rand = seeded(7).float;
  const subset = <T>(xs: T[]) => xs.filter(() => rand() < 0.4);
  let accepted = 0;
  let refused = 0;
  for (let i = 0; i < 25; i++) {
    const values: Record<string, unknown> = {};
    if (rand() < 0.8) values['mcp.allowed_hosts'] = subset(candidates);
    if (rand() < 0.4) values['mcp.allowed_origins'] = subset(origins);
    if (rand() < 0.3) values['mcp.enable_dns_rebinding_protection'] = rand() < 0.5;
    const r = await patch(values, rand() < 0.5);
    if (r.status === 200) accepted++;
    else refused++;
    await assertReachable(`step ${i}: ${JSON.stringify(values)} -> ${r.status}`);
  }
  assert.ok(accepted > 0 && refused > 0, `both kinds of save were tried (${accepted} accepted, ${refused} refused)`);
  reset();
});

test('validation messages are sentences: entries counted from 1, the value quoted, no regular expression', async () => {
  const v = (await (
    await fx.admin('POST', '/api/settings/validate', { values: { 'mcp.allowed_hosts': ['localhost:*', 'bad host'] } })
  ).json()) as ValidateResponse;
  assert.equal(v.ok, false);
  const msg = v.issues[0].message;
  assert.match(msg, /entry 2/);
  assert.match(msg, /"bad host"/);
  assert.doesNotMatch(msg, /\^|\\s|hosts\.1/);
  const top = (await (
    await fx.admin('POST', '/api/settings/validate', { values: { 'mcp.default_top_k': 500 } })
  ).json()) as ValidateResponse;
  assert.match(top.issues[0].message, /must be at most 100/);
});
