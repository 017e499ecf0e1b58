// The desktop shell's security items of issue 12 §13, in plain Node (the Electron binary cannot
// run here): the renderer's view of the engine carries no admin token; a frame may navigate only
// as the main frame within app://workbench; the safeStorage backend decides whether the key is
// encrypted or only obfuscated, and the engine's MCP status tells the workbench. Test doubles:
// a reversible cipher with a chosen backend name stands in for safeStorage, a worker_threads
// MessageChannel for the utilityProcess port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { CHANNELS } from '../../main/app/channels.js';
import { allowFrameNavigation } from '../../main/app/trusted-sender.js';
import { SafeStorageKeyFile, type SecretCipher } from '../../main/app/api-key-store.js';
import { serveKeyRequests } from '../../main/app/engine-key-bridge.js';
import { keyStorageNotice } from '../../main/common/api-key.js';
import { PortApiKeyStore } from '../../main/engine/http/api-key-store.js';
import { openEngine } from '../../main/engine/engine.js';
import { startHttpServer } from '../../main/engine/http/server.js';

test('the renderer gets neither the engine address nor the admin token over IPC', () => {
  // Only the folder picker and reveal-in-folder are offered; the engine is reached through
  // app://workbench/api, where the shell adds the token (protocol.ts).
  assert.deepEqual(Object.keys(CHANNELS).sort(), ['pickFolder', 'revealFile']);
  const ipc = readFileSync(new URL('../../main/app/ipc.ts', import.meta.url), 'utf8');
  const handled = [...ipc.matchAll(/handle\(CHANNELS\.(\w+)/g)].map((m) => m[1]).sort();
  assert.deepEqual(handled, ['pickFolder', 'revealFile']);
  assert.doesNotMatch(ipc, /adminToken/);
  // Control: the reader finds a handler written the way ipc.ts writes them.
  assert.deepEqual(
    [...`handle(CHANNELS.engineAddress, () => x);`.matchAll(/handle\(CHANNELS\.(\w+)/g)].map((m) => m[1]),
    ['engineAddress'],
  );
});

test('frame navigation: the main frame within app://workbench only; a subframe never', () => {
  assert.equal(allowFrameNavigation('app://workbench/index.html', true), true, 'control: the workbench itself');
  for (const url of [
    'https://evil.example/',
    'app://workbench.evil/',
    'file:///etc/passwd',
    'http://127.0.0.1:58012/',
    'javascript:alert(1)',
    'data:text/html,x',
  ]) {
    assert.equal(allowFrameNavigation(url, true), false, url);
    assert.equal(allowFrameNavigation(url, false), false, url);
  }
  assert.equal(allowFrameNavigation('app://workbench/index.html', false), false, 'no subframe, even of the workbench');
  const hardening = readFileSync(new URL('../../main/app/hardening.ts', import.meta.url), 'utf8');
  assert.match(
    hardening,
    /on\('will-frame-navigate', \(event\) => \{\s*if \(!allowFrameNavigation\(event\.url, event\.isMainFrame\)\) event\.preventDefault\(\);/,
  );
});

const cipher = (backend: string | undefined, available = true): SecretCipher => ({
  isAvailable: () => available,
  backend: backend === undefined ? undefined : () => backend,
  encrypt: (s) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`),
  decrypt: (b) => Buffer.from(b.toString().replace(/^enc:/, ''), 'base64').toString(),
});

test('the safeStorage backend decides how the key is kept: basic_text is only obfuscated, and the user is told', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'cairn-backend-')), 'k.bin');
  assert.equal(new SafeStorageKeyFile(file, cipher('basic_text')).storage(), 'obfuscated');
  assert.equal(new SafeStorageKeyFile(file, cipher('gnome_libsecret')).storage(), 'os');
  assert.equal(new SafeStorageKeyFile(file, cipher('kwallet5')).storage(), 'os');
  assert.equal(new SafeStorageKeyFile(file, cipher(undefined)).storage(), 'os', 'macOS/Windows: the OS store');
  assert.equal(new SafeStorageKeyFile(file, cipher('basic_text', false)).storage(), 'memory');
  assert.match(keyStorageNotice('obfuscated') ?? '', /only obfuscated.*keyring/);
  assert.match(keyStorageNotice('memory') ?? '', /memory only/);
  assert.equal(keyStorageNotice('os'), null);
  assert.equal(keyStorageNotice('file'), null);
});

test('the engine under the shell reports an obfuscated key in its MCP status; an OS-encrypted one has no notice (control)', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cairn-backend-engine-'));
  const engine = await openEngine({ home: join(root, 'home') });
  const token = randomBytes(24).toString('base64url');
  try {
    for (const [backend, expectNotice] of [
      ['basic_text', true],
      ['gnome_libsecret', false],
    ] as const) {
      const owner = new SafeStorageKeyFile(join(root, `${backend}.bin`), cipher(backend));
      const { port1, port2 } = new MessageChannel();
      serveKeyRequests(port2, owner);
      const store = new PortApiKeyStore(
        { postMessage: (m) => port1.postMessage(m), onMessage: (l) => void port1.on('message', l) },
        10_000,
        owner.storage(),
      );
      const s = await startHttpServer(engine, {
        host: '127.0.0.1',
        port: 0,
        adminToken: token,
        apiKeyStore: store,
        stdioCommand: ['cairn'],
        clientsHome: root,
      });
      try {
        const st = (await (
          await fetch(`${s.url}/api/mcp/status`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { security: { key_storage: { kind: string; notice: string | null } } };
        assert.equal(st.security.key_storage.kind, owner.storage());
        assert.equal(st.security.key_storage.notice !== null, expectNotice, backend);
      } finally {
        await s.close();
        port1.close();
      }
    }
  } finally {
    await engine.close();
  }
});
