/**
 * One key rule (main/common/api-key.ts) on every way a key comes in (issue 12 §9): the env
 * variable, the key file, the admin API, the desktop app's store and its engine port. Each weak
 * key is refused with a typed error and changes nothing; beside each, a strong key is accepted
 * (the control). `cairn serve` with a weak key, loopback or LAN, stops at start-up with exit 2.
 * The desktop parts run in plain Node: Electron's safeStorage and utilityProcess port are
 * stood in for by a reversible cipher and a worker_threads MessageChannel (test doubles).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { apiKeyProblem, API_KEY_MIN_LENGTH } from '../../main/common/api-key.js';
import { SafeStorageKeyFile, type SecretCipher } from '../../main/app/api-key-store.js';
import { answerKeyRequest, serveKeyRequests } from '../../main/app/engine-key-bridge.js';
import { FileApiKeyStore, generateApiKey, PortApiKeyStore } from '../../main/engine/http/api-key-store.js';
import { CairnError } from '../../main/engine/errors.js';
import { startFixture, INIT, MCP_HEADERS } from '../mcp/fixtures.js';

const WEAK = [
  'a',
  'short-key',
  'x'.repeat(API_KEY_MIN_LENGTH - 1),
  'a'.repeat(64),
  'abcabcabcabcabcabcabcabcabcabc',
  'has spaces in it and is long enough',
  'base64+with/slash=padding+long+enough',
  'ünïcödé-ünïcödé-ünïcödé-ünïcödé',
  'line\nbreak-line-break-line-break',
];
const strong = () => randomBytes(24).toString('base64url');
const isCode = (code: string) => (err: unknown) => err instanceof CairnError && err.code === code;

test('the rule: weak shapes refused, generated and long random keys accepted', () => {
  for (const k of WEAK) assert.ok(apiKeyProblem(k), `refused: ${JSON.stringify(k)}`);
  for (let i = 0; i < 20; i++) {
    assert.equal(apiKeyProblem(generateApiKey()), null);
    assert.equal(apiKeyProblem(strong()), null);
  }
  assert.ok(generateApiKey().length >= 32 + 6, 'a generated key carries 256 bits');
});

test('CAIRN_MCP_API_KEY: a weak value stops the store at construction (config_invalid); a strong one is served', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cairn-keyrule-'));
  for (const k of WEAK.filter((w) => w.trim() === w))
    assert.throws(() => new FileApiKeyStore(home, { CAIRN_MCP_API_KEY: k }), isCode('config_invalid'), k);
  const good = strong();
  assert.equal(await new FileApiKeyStore(home, { CAIRN_MCP_API_KEY: good }).get(), good);
});

test('the key file: a weak key in it is refused on read; set() refuses a weak key and keeps the old one', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cairn-keyrule-'));
  writeFileSync(join(home, 'mcp-api-key'), 'a\n', { mode: 0o600 });
  await assert.rejects(new FileApiKeyStore(home, {}).get(), isCode('config_invalid'));
  const store = new FileApiKeyStore(home, {});
  const good = strong();
  await store.set(good);
  for (const k of WEAK) await assert.rejects(store.set(k), isCode('invalid_argument'), k);
  assert.equal(readFileSync(join(home, 'mcp-api-key'), 'utf8').trim(), good);
  assert.equal(await new FileApiKeyStore(home, {}).get(), good);
});

test('the admin API: action set refuses a weak key (400, nothing changes) and stores a strong one that MCP then accepts', async () => {
  const fx = await startFixture({ 'mcp.require_api_key': true });
  try {
    const good = strong();
    assert.equal((await fx.admin('POST', '/api/mcp/api-key', { action: 'set', key: good })).status, 200);
    for (const k of WEAK) {
      const r = await fx.admin('POST', '/api/mcp/api-key', { action: 'set', key: k });
      assert.equal(r.status, 400, k);
      assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'invalid_argument');
    }
    assert.equal(await fx.apiKeys.get(), good, 'the strong key is still the one set');
    const mcp = (key: string) =>
      fetch(fx.mcpUrl, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` },
        body: JSON.stringify(INIT),
      });
    assert.equal((await mcp('a')).status, 401);
    assert.equal((await mcp(good)).status, 200);
  } finally {
    await fx.close();
  }
});

/** Stands in for Electron's safeStorage (which cannot run here). */
const cipher: SecretCipher = {
  isAvailable: () => true,
  encrypt: (s) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`),
  decrypt: (b) => Buffer.from(b.toString().replace(/^enc:/, ''), 'base64').toString(),
};

test('the desktop store and IPC path: set() refuses weak keys, a weak key stored by an older version is not served, the port refuses a weak key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-keyrule-app-'));
  const file = join(dir, 'k.bin');
  const owner = new SafeStorageKeyFile(file, cipher);
  for (const k of WEAK) assert.throws(() => owner.set(k), /API key/, k);
  const good = strong();
  owner.set(good);
  assert.equal(new SafeStorageKeyFile(file, cipher).get(), good, 'control: a strong key is stored and read back');

  // The engine asks to set a weak key over its port: refused with a reply, the store keeps its key.
  const reply = answerKeyRequest(owner, { type: 'cairn:api-key:request', id: 1, op: 'set', key: 'a' });
  assert.equal(reply && 'ok' in reply && reply.ok, false);
  assert.equal(owner.get(), good);

  // An older version stored a 16-character key: not served (fail closed).
  writeFileSync(file, cipher.encrypt('sixteen-chars-ok'));
  assert.equal(new SafeStorageKeyFile(file, cipher).get(), null);

  // An owner that hands out a weak key anyway (an older shell): the engine's port store refuses it.
  const { port1, port2 } = new MessageChannel();
  serveKeyRequests(port2, { get: () => 'a', set: () => undefined });
  const engineSide = new PortApiKeyStore({
    postMessage: (m) => port1.postMessage(m),
    onMessage: (l) => void port1.on('message', l),
  });
  await assert.rejects(engineSide.get(), isCode('config_invalid'));
  await assert.rejects(engineSide.set('a'), isCode('invalid_argument'));
  port1.close();
});

/** `cairn serve` from the sources, with its own data folder; resolves with its exit code and output, or 'listening'. */
function serveWith(env: Record<string, string>, args: string[]): Promise<{ code: number | null; out: string }> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-keyrule-serve-'));
  writeFileSync(join(home, 'config.json'), JSON.stringify({ mcp: { allow_non_loopback: true } }));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('../../main/engine/cli/main.ts', import.meta.url).pathname,
      'serve',
      '--port',
      '0',
      ...args,
    ],
    {
      env: { ...process.env, CAIRN_HOME: home, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolve) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      if (/MCP: http/.test(out)) {
        child.kill('SIGTERM');
        resolve({ code: null, out: 'listening' });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

test('cairn serve: CAIRN_MCP_API_KEY=a on a LAN bind (and on loopback) stops at start-up with exit 2 and says why; a strong key starts (control)', async () => {
  const lan = await serveWith({ CAIRN_MCP_API_KEY: 'a' }, ['--host', '0.0.0.0']);
  assert.equal(lan.code, 2, lan.out);
  assert.match(lan.out, /CAIRN_MCP_API_KEY is refused: An API key must be at least 24 characters/);
  const loop = await serveWith({ CAIRN_MCP_API_KEY: 'a' }, []);
  assert.equal(loop.code, 2, loop.out);
  const ok = await serveWith({ CAIRN_MCP_API_KEY: strong() }, ['--host', '0.0.0.0']);
  assert.equal(ok.out, 'listening', 'control: a strong key with the opt-in starts on a LAN bind');
});
