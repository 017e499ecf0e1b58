// The Electron shell's pure parts, run in plain Node (the Electron binary cannot run here):
// the app:// path guard, the IPC sender check, the external-link allow-list, the encrypted API
// key store, and the preload/main channel lists agreeing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveInside } from '../../main/app/safe-path.js';
import { isTrustedSenderUrl } from '../../main/app/trusted-sender.js';
import { isAllowedExternal } from '../../main/app/external-links.js';
import { ApiKeyStore, type SecretCipher } from '../../main/app/api-key-store.js';
import { CHANNELS } from '../../main/app/channels.js';

test('app:// paths stay inside the renderer folder', () => {
  const root = '/opt/cairn/renderer/dist';
  assert.equal(resolveInside(root, '/'), join(root, 'index.html'));
  assert.equal(resolveInside(root, '/assets/index-1.js'), join(root, 'assets/index-1.js'));
  for (const bad of ['/../secret', '/assets/../../x', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc', '/a%00b', '/%E0%A4%A'])
    assert.equal(resolveInside(root, bad), null, bad);
  assert.equal(resolveInside(root, '/../dist-evil/x'), null);
});

test('only the workbench frame on app://workbench is a trusted IPC sender', () => {
  assert.equal(isTrustedSenderUrl('app://workbench/index.html'), true);
  for (const bad of ['https://evil.example/', 'app://workbench.evil/', 'app://other/index.html', 'file:///etc/passwd', 'http://127.0.0.1:58012/', '', null, undefined, 'not a url'])
    assert.equal(isTrustedSenderUrl(bad), false, String(bad));
});

test('external links: https on the allow-list only', () => {
  assert.equal(isAllowedExternal('https://modelcontextprotocol.io/docs'), true);
  for (const bad of ['http://modelcontextprotocol.io/', 'https://modelcontextprotocol.io.evil.com/', 'https://user@modelcontextprotocol.io/', 'file:///etc/passwd', 'javascript:alert(1)', 'https://evil.example/'])
    assert.equal(isAllowedExternal(bad), false, bad);
});

/** Stands in for Electron's safeStorage (OS keychain), which cannot run here. */
function fakeCipher(available: boolean): SecretCipher {
  return {
    isAvailable: () => available,
    encrypt: (s) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`),
    decrypt: (b) => Buffer.from(b.toString().replace(/^enc:/, ''), 'base64').toString(),
  };
}

test('the API key is stored encrypted (0600) and read back; cleared on null', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-key-'));
  const file = join(dir, 'k.bin');
  const store = new ApiKeyStore(file, fakeCipher(true));
  store.set('a-long-secret-key-value');
  assert.ok(!readFileSync(file, 'utf8').includes('a-long-secret-key-value'));
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(new ApiKeyStore(file, fakeCipher(true)).get(), 'a-long-secret-key-value');
  store.set(null);
  assert.equal(existsSync(file), false);
});

test('without OS encryption the key is kept in memory only, never written in clear', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-key-'));
  const file = join(dir, 'k.bin');
  const store = new ApiKeyStore(file, fakeCipher(false));
  store.set('a-long-secret-key-value');
  assert.equal(store.get(), 'a-long-secret-key-value');
  assert.equal(existsSync(file), false);
  assert.equal(store.persistent(), false);
});

test('the preload invokes exactly the channels main/app handles', () => {
  const preload = readFileSync(new URL('../../preload/index.ts', import.meta.url), 'utf8');
  const used = [...preload.matchAll(/ipcRenderer\.invoke\('([^']+)'/g)].map((m) => m[1]).sort();
  assert.deepEqual(used, Object.values(CHANNELS).sort());
  assert.doesNotMatch(preload, /exposeInMainWorld\([^)]*ipcRenderer\s*\)/, 'ipcRenderer itself must not be exposed');
});
