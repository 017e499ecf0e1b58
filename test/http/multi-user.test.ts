/**
 * Multi-user machines (issue 12 §11): the admin API's MCP status says which other accounts can
 * log in here and whether the key is off meanwhile, so the workbench can offer the fix. The
 * account list is the real /etc/passwd parser; the server test gives its own list (this machine's
 * accounts are whatever they are), and a last test reads the real file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loginUsersIn, otherLoginUsers } from '../../main/engine/admin/local-users.js';
import { openEngine } from '../../main/engine/engine.js';
import { FileApiKeyStore } from '../../main/engine/http/api-key-store.js';
import { startHttpServer } from '../../main/engine/http/server.js';

const PASSWD = [
  'root:x:0:0:root:/root:/bin/bash',
  'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
  'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
  'me:x:1000:1000::/home/me:/bin/bash',
  'alice:x:1001:1001:Alice:/home/alice:/bin/zsh',
  'svc:x:1002:1002::/srv:/usr/sbin/nologin',
  'locked:x:1003:1003::/home/locked:/bin/false',
  'bob:x:1500:1500::/home/bob:/usr/bin/fish',
  '# a comment',
  'broken line',
].join('\n');

test('login accounts: uid >= 1000 with a login shell, not nobody, not this user', () => {
  assert.deepEqual(loginUsersIn(PASSWD, 1000), ['alice', 'bob']);
  assert.deepEqual(loginUsersIn(PASSWD, 0), ['me', 'alice', 'bob']);
  assert.deepEqual(loginUsersIn('', 0), []);
});

test('MCP status: key_off_with_other_users while the key is off and others can log in; false once the key is required (control)', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cairn-multiuser-'));
  const engine = await openEngine({ home: join(root, 'home') });
  const token = randomBytes(24).toString('base64url');
  const keys = new FileApiKeyStore(join(root, 'home'), {});
  let others = ['alice', 'bob'];
  const s = await startHttpServer(engine, {
    host: '127.0.0.1',
    port: 0,
    adminToken: token,
    apiKeyStore: keys,
    stdioCommand: ['cairn'],
    clientsHome: root,
    otherLoginUsers: async () => others,
  });
  const status = async () =>
    (
      (await (await fetch(`${s.url}/api/mcp/status`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        security: { other_login_users: string[]; key_off_with_other_users: boolean; warnings: string[] };
      }
    ).security;
  try {
    let sec = await status();
    assert.deepEqual(sec.other_login_users, ['alice', 'bob']);
    assert.equal(sec.key_off_with_other_users, true);
    // The one-click fix the workbench runs: a key, then require it.
    await keys.rotate();
    engine.settings.set({ 'mcp.require_api_key': true });
    sec = await status();
    assert.equal(sec.key_off_with_other_users, false, 'the key is required now');
    engine.settings.set({ 'mcp.require_api_key': false });
    others = [];
    sec = await status();
    assert.equal(sec.key_off_with_other_users, false, 'nobody else can log in');
  } finally {
    await s.close();
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});

test(
  'the real /etc/passwd is read (this machine lists what its file says)',
  { skip: process.platform === 'win32' ? 'no /etc/passwd' : false },
  async () => {
    const { readFileSync } = await import('node:fs');
    const expected = loginUsersIn(readFileSync('/etc/passwd', 'utf8'), process.getuid?.() ?? -1);
    assert.deepEqual(await otherLoginUsers(), expected);
  },
);
