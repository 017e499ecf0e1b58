/** The Host/Origin matcher, the secret comparison and the launch helpers (pure functions). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bearerToken,
  credentialInQuery,
  hostAllowed,
  isAllowAll,
  originAllowed,
  secretEquals,
} from '../../main/engine/web/security.js';
import { adminTokenFromEnv, workbenchAddress } from '../../main/engine/http/launch.js';
import { defaultSettings } from '../../main/common/settings.js';

const defaults = defaultSettings();
const hosts = defaults['mcp.allowed_hosts'] as string[];
const origins = defaults['mcp.allowed_origins'] as string[];

test('Host patterns: `:*` is any port, nothing else slips through', () => {
  for (const h of ['127.0.0.1:58012', 'localhost:1', 'LOCALHOST:58012', '[::1]:58012', 'localhost'])
    assert.ok(hostAllowed(h, hosts), h);
  for (const h of [
    'evil.example:58012',
    'localhost.evil.example:58012',
    '127.0.0.1.nip.io:58012',
    'localhost:1@evil',
    'localhost:abc',
    '127.0.0.2:58012',
    '',
    null,
  ]) {
    assert.ok(!hostAllowed(h, hosts), String(h));
  }
  assert.ok(hostAllowed('anything.example:9', ['*:*']));
  assert.ok(isAllowAll('*:*') && isAllowAll('*') && isAllowAll('http://*') && !isAllowAll('localhost:*'));
});

test('Origin patterns: absent passes, null and foreign do not', () => {
  assert.ok(originAllowed(null, origins));
  assert.ok(originAllowed('http://localhost:5173', origins));
  assert.ok(originAllowed('http://127.0.0.1:58012', origins));
  for (const o of [
    'null',
    'http://evil.example',
    'https://localhost:5173',
    'http://localhost.evil.example:80',
    'http://127.0.0.1:1/x',
  ])
    assert.ok(!originAllowed(o, origins), o);
  assert.ok(originAllowed('http://127.0.0.1:9', [], 'http://127.0.0.1:9'), 'same origin');
});

test('bearer parsing, constant-time comparison, credentials in URLs', () => {
  assert.equal(bearerToken('Bearer abc'), 'abc');
  assert.equal(bearerToken('bearer abc'), 'abc');
  assert.equal(bearerToken('Basic abc'), null);
  assert.equal(bearerToken('Bearer a b'), null);
  assert.ok(secretEquals('k'.repeat(40), 'k'.repeat(40)));
  assert.ok(!secretEquals('k'.repeat(40), 'k'.repeat(39)));
  assert.ok(!secretEquals(null, 'x') && !secretEquals('x', null) && !secretEquals('', ''));
  assert.equal(credentialInQuery(new URL('http://h/mcp?api_key=1')), 'api_key');
  assert.equal(credentialInQuery(new URL('http://h/mcp?Token=1')), 'Token');
  assert.equal(credentialInQuery(new URL('http://h/api/mcp/api-key?reveal=1')), null);
});

test('admin token from CAIRN_ADMIN_TOKEN (a short one refused); workbench address carries it in the fragment', () => {
  assert.equal(adminTokenFromEnv({ CAIRN_ADMIN_TOKEN: 'a'.repeat(20) }), 'a'.repeat(20));
  assert.throws(() => adminTokenFromEnv({ CAIRN_ADMIN_TOKEN: 'short' }), /16/);
  assert.equal(adminTokenFromEnv({}), null);
  assert.equal(workbenchAddress('http://127.0.0.1:58012', 'x/y'), 'http://127.0.0.1:58012/#token=x%2Fy');
});
