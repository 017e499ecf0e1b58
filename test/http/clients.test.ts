/**
 * Client setup over the admin API: snippets that match the running server, and installs that
 * merge into existing config files (in a temp home) with a backup. The workbench is served too.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { ClientConfig } from '../../main/common/admin.js';
import { clientConfigPath } from '../../main/engine/client-config/paths.js';
import { mergeTomlTable } from '../../main/engine/client-config/toml.js';
import { WORKBENCH_CSP } from '../../main/engine/http/static.js';
import { connect, startFixture, type Fixture } from '../mcp/fixtures.js';

let fx: Fixture;
let rendererDir: string;

before(async () => {
  rendererDir = await mkdtemp(join(tmpdir(), 'cairn-renderer-'));
  await mkdir(join(rendererDir, 'assets'));
  await writeFile(
    join(rendererDir, 'index.html'),
    '<!doctype html><title>Cairn</title><script type="module" src="/assets/app.js"></script>',
  );
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("cairn")');
  await writeFile(join(rendererDir, 'assets', 'app.css'), 'body{}');
  fx = await startFixture({}, { rendererDir });
});

after(async () => {
  await fx.close();
  await rm(rendererDir, { recursive: true, force: true });
});

const clients = async (q = '') => (await (await fx.admin('GET', `/api/clients${q}`)).json()) as ClientConfig[];
const install = (body: unknown) => fx.admin('POST', '/api/clients/install', body);

test('snippets use the advertised URL, the stdio command, and the key header only when required', async () => {
  const list = await clients();
  assert.deepEqual(
    list.map((c) => c.id),
    ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'codex', 'windsurf', 'gemini'],
  );
  const url = `${fx.server.url}/mcp`;
  for (const c of list) {
    if (c.uses === 'http') assert.ok(c.snippet.includes(url), `${c.id} dials ${url}`);
    assert.ok(!c.snippet.includes('Authorization'), `${c.id}: no key header when none is required`);
  }
  const desktop = JSON.parse(list[0].snippet) as {
    mcpServers: { cairn: { command: string; args: string[]; env: Record<string, string> } };
  };
  assert.deepEqual(desktop.mcpServers.cairn, {
    command: 'cairn',
    args: ['mcp', '--stdio'],
    env: { CAIRN_HOME: fx.engine.dataDir },
  });
  assert.equal(
    list[1].snippet,
    `claude mcp remove --scope user cairn >/dev/null 2>&1; claude mcp add-json --scope user cairn '${JSON.stringify({ type: 'http', url })}'`,
  );
  assert.equal(list[1].installable, false);
  assert.deepEqual(JSON.parse(list[3].snippet), { servers: { cairn: { type: 'http', url } } });
  assert.match(list[4].snippet, /^\[mcp_servers\.cairn\]\nurl = "http/);

  const key = await fx.apiKeys.rotate();
  fx.engine.settings.set({ 'mcp.require_api_key': true });
  try {
    const hidden = await clients();
    assert.ok(hidden.find((c) => c.id === 'cursor')!.snippet.includes('Bearer <your Cairn API key>'));
    assert.ok(!JSON.stringify(hidden).includes(key), 'the key only with ?reveal=1');
    const revealed = await clients('?reveal=1');
    const cursor = JSON.parse(revealed.find((c) => c.id === 'cursor')!.snippet) as {
      mcpServers: { cairn: { url: string; headers: Record<string, string> } };
    };
    // The snippet really works: an SDK client configured with it connects.
    const client = await connect(cursor.mcpServers.cairn.url, cursor.mcpServers.cairn.headers);
    assert.ok((await client.listTools()).tools.length >= 2);
    await client.close();
  } finally {
    fx.engine.settings.set({ 'mcp.require_api_key': false });
  }
});

test('install needs confirm: true and an installable client', async () => {
  assert.equal((await install({ id: 'cursor' })).status, 400);
  assert.equal((await install({ id: 'cursor', confirm: 'yes' })).status, 400);
  assert.equal((await install({ id: 'claude-code', confirm: true })).status, 400);
  assert.equal((await install({ id: 'emacs', confirm: true })).status, 400);
  const path = clientConfigPath('cursor', fx.clientsHome, process.platform)!;
  await assert.rejects(stat(path), 'nothing was written');
});

test('install merges into existing JSON, keeps a timestamped backup, writes mode 0600', async () => {
  const path = clientConfigPath('cursor', fx.clientsHome, process.platform)!;
  await mkdir(dirname(path), { recursive: true });
  const before = { theme: 'dark', mcpServers: { other: { url: 'http://127.0.0.1:1/mcp' }, cairn: { url: 'stale' } } };
  await writeFile(path, JSON.stringify(before));
  const res = await install({ id: 'cursor', confirm: true });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { config_path: string; backup_path: string };
  assert.equal(body.config_path, path);
  const after = JSON.parse(await readFile(path, 'utf8')) as typeof before;
  assert.equal(after.theme, 'dark');
  assert.deepEqual(after.mcpServers.other, before.mcpServers.other);
  assert.deepEqual(after.mcpServers.cairn, { url: `${fx.server.url}/mcp` });
  assert.deepEqual(JSON.parse(await readFile(body.backup_path, 'utf8')), before);
  assert.match(body.backup_path, /\.cairn-backup-\d{4}-\d\d-\d\dT/);
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  // A fresh install (no file yet) has nothing to back up.
  const fresh = (await (await install({ id: 'windsurf', confirm: true })).json()) as {
    config_path: string;
    backup_path: string | null;
  };
  assert.equal(fresh.backup_path, null);
  assert.deepEqual(JSON.parse(await readFile(fresh.config_path, 'utf8')), {
    mcpServers: { cairn: { serverUrl: `${fx.server.url}/mcp` } },
  });
});

test('install refuses to overwrite a config file it cannot parse', async () => {
  const path = clientConfigPath('vscode', fx.clientsHome, process.platform)!;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, '{ "servers": { oops');
  const res = await install({ id: 'vscode', confirm: true });
  assert.equal(res.status, 409);
  assert.equal(await readFile(path, 'utf8'), '{ "servers": { oops', 'left untouched');
  assert.deepEqual(
    (await readdir(dirname(path))).filter((n) => n.includes('backup')),
    [],
  );
});

test('install merges the Codex TOML table and keeps the rest of the file', async () => {
  const path = clientConfigPath('codex', fx.clientsHome, process.platform)!;
  await mkdir(dirname(path), { recursive: true });
  const original =
    'model = "o4"\n\n[mcp_servers.cairn]\nurl = "stale"\n\n[mcp_servers.cairn.env]\nX = "1"\n\n[mcp_servers.other]\ncommand = "other"\n';
  await writeFile(path, original);
  assert.equal((await install({ id: 'codex', confirm: true })).status, 200);
  const text = await readFile(path, 'utf8');
  assert.match(text, /^model = "o4"/);
  assert.match(text, /\[mcp_servers\.other\]\ncommand = "other"/);
  assert.equal(text.match(/\[mcp_servers\.cairn/g)?.length, 1, 'the old cairn table and its sub-table are replaced');
  assert.ok(text.includes(`url = "${fx.server.url}/mcp"`));
  assert.equal(
    mergeTomlTable('', ['mcp_servers', 'cairn'], { url: 'u', http_headers: { Authorization: 'Bearer k' } }),
    '[mcp_servers.cairn]\nurl = "u"\nhttp_headers = { Authorization = "Bearer k" }\n',
  );
});

test('the workbench is served with content types, a strict CSP and the SPA fallback', async () => {
  const index = await fetch(`${fx.server.url}/`);
  assert.equal(index.status, 200);
  assert.match(index.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(index.headers.get('content-security-policy'), WORKBENCH_CSP);
  assert.match(WORKBENCH_CSP, /script-src 'self'/);
  assert.ok(!WORKBENCH_CSP.includes('unsafe'));
  assert.equal(index.headers.get('x-frame-options'), 'DENY');
  assert.match(await index.text(), /<title>Cairn<\/title>/);
  const js = await fetch(`${fx.server.url}/assets/app.js`);
  assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
  assert.match((await fetch(`${fx.server.url}/assets/app.css`)).headers.get('content-type') ?? '', /^text\/css/);
  const route = await fetch(`${fx.server.url}/folders/settings`);
  assert.equal(route.status, 200);
  assert.match(await route.text(), /<title>Cairn<\/title>/, 'client-side routes fall back to index.html');
  assert.equal((await fetch(`${fx.server.url}/assets/missing.js`)).status, 404);
  for (const p of ['/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc/passwd', '/assets/..%2f..%2f..%2fetc%2fpasswd']) {
    const r = await fetch(`${fx.server.url}${p}`);
    assert.ok(!(await r.text()).includes('root:'), `${p} reads nothing outside`);
  }
});
