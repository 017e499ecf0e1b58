// The MCP API key in the desktop app: the engine (PortApiKeyStore) asks the shell
// (engine-key-bridge.ts) over a message port, and the shell keeps the key with safeStorage.
// Test doubles, because Electron cannot run here: a node:worker_threads MessageChannel and a
// Node child process with IPC stand in for the utilityProcess port, and a reversible cipher
// stands in for safeStorage (the OS keychain). Everything else is real, including `cairn serve`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { SafeStorageKeyFile, type SecretCipher } from '../../main/app/api-key-store.js';
import { importEngineKeyFile, keyChanged, serveKeyRequests } from '../../main/app/engine-key-bridge.js';
import {
  apiKeyStoreFor,
  FileApiKeyStore,
  PortApiKeyStore,
  type KeyPort,
} from '../../main/engine/http/api-key-store.js';
import { CairnError } from '../../main/engine/errors.js';

/** Stands in for Electron's safeStorage. `broken` makes it fail as a locked keychain would. */
function fakeCipher(state = { broken: false }): SecretCipher {
  return {
    isAvailable: () => true,
    encrypt: (s) => {
      if (state.broken) throw new Error('keychain locked');
      return Buffer.from(`enc:${Buffer.from(s).toString('base64')}`);
    },
    decrypt: (b) => Buffer.from(b.toString().replace(/^enc:/, ''), 'base64').toString(),
  };
}

function engineEnd(port: MessagePort): KeyPort {
  port.unref();
  return { postMessage: (m) => port.postMessage(m), onMessage: (l) => void port.on('message', l) };
}

const isCode = (code: string) => (err: unknown) => err instanceof CairnError && err.code === code;

test('over a real MessageChannel: get, rotate, set; the key is stored encrypted by the shell and read back by a new engine', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-keyport-'));
  const file = join(dir, 'mcp-api-key.bin');
  const cipher = { broken: false };
  const owner = new SafeStorageKeyFile(file, fakeCipher(cipher));
  const { port1, port2 } = new MessageChannel();
  port2.unref();
  serveKeyRequests(port2, owner);
  const store = new PortApiKeyStore(engineEnd(port1));

  assert.equal(await store.get(), null);
  const key = await store.rotate();
  assert.match(key, /^cairn_[A-Za-z0-9_-]{43}$/);
  assert.equal(owner.get(), key, 'the shell holds it');
  assert.ok(!readFileSync(file, 'utf8').includes(key), 'never in clear on disk');
  assert.equal(await store.get(), key);
  await assert.rejects(store.set('short'), isCode('invalid_argument'));

  // A new engine (after a restart) gets the same key from the shell.
  const { port1: a, port2: b } = new MessageChannel();
  b.unref();
  serveKeyRequests(b, new SafeStorageKeyFile(file, fakeCipher()));
  assert.equal(await new PortApiKeyStore(engineEnd(a)).get(), key);

  // Set from the workbench through the preload: the shell tells the engine its copy is stale.
  const fromPreload = `preload_${randomBytes(12).toString('hex')}`;
  owner.set(fromPreload);
  assert.equal(await store.get(), key, 'the engine still has its copy');
  keyChanged(port2);
  for (let i = 0; i < 100 && (await store.get()) !== fromPreload; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(await store.get(), fromPreload);

  // A keychain that refuses is a typed failure on the engine side, and the old key stays.
  cipher.broken = true;
  await assert.rejects(
    store.rotate(),
    (err: unknown) => isCode('dependency_unavailable')(err) && /keychain locked/.test((err as Error).message),
  );
  cipher.broken = false;
  assert.equal(new SafeStorageKeyFile(file, fakeCipher()).get(), fromPreload);
  port1.close();
  a.close();
});

test('a shell that never answers is a typed error, not a hang', async () => {
  const { port1, port2 } = new MessageChannel();
  port2.unref();
  const store = new PortApiKeyStore(engineEnd(port1), 200);
  await assert.rejects(store.get(), isCode('dependency_unavailable'));
  port1.close();
});

test('cairn serve picks its store: the parent when the shell asks for it, else the key file; a key file from before moves into safeStorage', () => {
  const home = mkdtempSync(join(tmpdir(), 'cairn-keychoice-'));
  assert.ok(apiKeyStoreFor(home, {}) instanceof FileApiKeyStore);
  const noParent = { ...process, send: undefined, parentPort: undefined } as unknown as NodeJS.Process;
  assert.throws(() => apiKeyStoreFor(home, { CAIRN_API_KEY_STORE: 'parent' }, noParent), isCode('invalid_argument'));

  const old = join(home, 'mcp-api-key');
  writeFileSync(old, 'cairn_an-older-key-kept-by-the-engine\n', { mode: 0o600 });
  const owner = new SafeStorageKeyFile(join(home, 'shell', 'k.bin'), fakeCipher());
  assert.equal(importEngineKeyFile(owner, old), true);
  assert.equal(owner.get(), 'cairn_an-older-key-kept-by-the-engine');
  assert.equal(existsSync(old), false, 'the clear-text copy is gone');
  assert.equal(importEngineKeyFile(owner, old), false);
});

test('the real engine (cairn serve in a child process with IPC) keeps its MCP key with the shell', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'cairn-keyengine-'));
  const owner = new SafeStorageKeyFile(join(home, '..', `${home.split('/').pop()}-shell.bin`), fakeCipher());
  const token = randomBytes(24).toString('base64url');
  const child = fork(new URL('../../main/engine/cli/main.ts', import.meta.url).pathname, ['serve', '--port', '0'], {
    env: {
      ...process.env,
      CAIRN_HOME: home,
      CAIRN_ADMIN_TOKEN: token,
      CAIRN_API_KEY_STORE: 'parent',
      LANCEDB_LOG: 'error',
    },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  // Electron's UtilityProcess has postMessage; Node's child process, standing in for it, has send.
  const port = {
    postMessage: (m: unknown) => void child.send(m as object),
    on: (e: 'message', l: (m: unknown) => void) => child.on(e, l),
  };
  serveKeyRequests(port, owner);
  let out = '';
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Workbench:\s*(http:\/\/[^/\s]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`engine exited ${code}: ${out}`)));
  });
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(origin + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const mcp = (key: string | null) =>
    fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });

  const generated = (await (await admin('POST', '/api/mcp/api-key', { action: 'generate' })).json()) as { key: string };
  assert.equal(owner.get(), generated.key, 'the key went to the shell');
  assert.equal(existsSync(join(home, 'mcp-api-key')), false, 'and not into the engine data folder');
  assert.equal((await admin('PATCH', '/api/settings', { values: { 'mcp.require_api_key': true } })).status, 200);
  assert.equal((await mcp(null)).status, 401);
  assert.equal((await mcp(generated.key)).status, 200);

  // Rotated by the shell (the preload's setApiKey): the engine follows once told.
  const next = `cairn_${randomBytes(32).toString('base64url')}`;
  owner.set(next);
  keyChanged(port);
  for (let i = 0; i < 100 && (await mcp(next)).status !== 200; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal((await mcp(next)).status, 200);
  assert.equal((await mcp(generated.key)).status, 401);

  // Listening on the port does not keep a stopped engine alive.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  child.kill('SIGTERM');
  const end = await exited;
  assert.deepEqual(end, { code: 0, signal: null });
});
