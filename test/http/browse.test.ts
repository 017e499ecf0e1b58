// The headless workbench's folder browser (GET /api/browse) and folder options over real HTTP:
// directories only, never above the home folder (a link out is marked and not entered), the data
// folder and indexed folders marked, behind the admin API's token and Host/Origin checks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/engine.js';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { startHttpServer, type HttpServerHandle } from '../../main/engine/http/server.js';
import { FileApiKeyStore } from '../../main/engine/http/api-key-store.js';
import type { BrowseResponse } from '../../main/common/browse.js';
import type { FolderStatus } from '../../main/common/status.js';

let root: string;
let me: string;
let engine: Engine;
let server: HttpServerHandle;
const token = randomBytes(24).toString('base64url');
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const t = await tempDir('browse');
  cleanups.push(t.cleanup);
  root = t.dir;
  me = join(root, 'me');
  for (const d of ['notes/2024', 'code', '.ssh', 'node_modules', '.config/Cairn', 'elsewhere-target'])
    await mkdir(join(me, d), { recursive: true });
  await mkdir(join(root, 'outside'), { recursive: true });
  await writeFile(join(me, 'notes', 'a.md'), '# a\n');
  await writeFile(join(me, 'code', 'main.ts'), 'export const answer = 42;\n');
  await writeFile(join(me, 'code', '.env'), 'TOKEN=secret\n');
  await writeFile(join(me, 'file.txt'), 'a file, not listed\n');
  await symlink(join(root, 'outside'), join(me, 'link-out'));
  engine = await openEngine({ home: join(me, '.config', 'Cairn') });
  await engine.addFolder({ path: join(me, 'code') });
  server = await startHttpServer(engine, {
    host: '127.0.0.1',
    port: 0,
    adminToken: token,
    apiKeyStore: new FileApiKeyStore(join(me, '.config', 'Cairn'), {}),
    stdioCommand: ['cairn'],
    clientsHome: me,
    browseHome: me,
  });
});

after(async () => {
  await server?.close();
  await engine?.close();
  for (const c of cleanups.reverse()) await c();
});

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
const browse = async (path?: string) => {
  const res = await call('GET', `/api/browse${path === undefined ? '' : `?path=${encodeURIComponent(path)}`}`);
  return {
    status: res.status,
    body: (await res.json()) as BrowseResponse & { error?: { code: string; message: string; remedy?: string } },
  };
};

test("lists the home folder's directories (no files), marked, hidden ones last", async () => {
  const { status, body } = await browse();
  assert.equal(status, 200);
  assert.equal(body.path, me);
  assert.equal(body.parent, null, 'nothing above home');
  const names = body.entries.map((e) => e.name);
  assert.deepEqual(names, ['code', 'elsewhere-target', 'link-out', 'node_modules', 'notes', '.config', '.ssh']);
  assert.ok(!names.includes('file.txt'));
  const marks = Object.fromEntries(body.entries.map((e) => [e.name, e.marks]));
  assert.deepEqual(marks.code, ['indexed']);
  assert.deepEqual(marks['.config'], ['contains_data_folder']);
  assert.deepEqual(marks['.ssh'], ['secret']);
  assert.deepEqual(marks.node_modules, ['default_exclude']);
  assert.deepEqual(marks['link-out'], ['outside_home']);
  assert.deepEqual(marks.notes, [], 'a control: a plain folder has no mark');
  const inner = await browse(join(me, '.config'));
  assert.deepEqual(
    inner.body.entries.map((e) => [e.name, e.marks]),
    [['Cairn', ['data_folder']]],
  );
  assert.equal(inner.body.parent, me);
  assert.equal((await browse('~/notes')).body.path, join(me, 'notes'), '~ is the home folder');
});

test('nothing above home or through a link out is listed; missing paths are not_found', async () => {
  for (const p of [root, '/', '/etc', join(me, 'link-out'), join(me, '..')]) {
    const { status, body } = await browse(p);
    assert.equal(status, 403, p);
    assert.equal(body.error?.code, 'path_outside_folders', p);
    assert.match(body.error?.message ?? '', /only your home folder/);
  }
  assert.equal((await browse(join(me, 'nope'))).body.error?.code, 'not_found');
  assert.equal((await browse(join(me, 'file.txt'))).body.error?.code, 'invalid_argument');
});

test('guarded like every admin route: token, Host and Origin', async () => {
  assert.equal((await fetch(`${server.url}/api/browse`)).status, 401);
  assert.equal((await call('GET', '/api/browse', undefined, { origin: 'http://evil.example' })).status, 403);
  // fetch sets Host itself: a raw request sends a rebinding attacker's name.
  const hostStatus = await new Promise<number>((resolve, reject) => {
    const u = new URL(server.url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: '/api/browse',
        headers: { authorization: `Bearer ${token}`, host: 'evil.example' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
  assert.equal(hostStatus, 403);
  assert.equal((await call('GET', '/api/browse')).status, 200, 'control: the same request with the token and our Host');
});

test('a folder is made text-only and back in place; the settings table is served for the editor', async () => {
  const folder = join(me, 'code');
  let res = await call('PATCH', '/api/folders', { path: folder, text_only: true });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as FolderStatus).text_only, true);
  assert.equal(engine.folderSpecs()[0].text_only, true);
  res = await call('PATCH', '/api/folders', { path: folder, text_only: 'yes' });
  assert.equal(res.status, 400);
  res = await call('PATCH', '/api/folders', { path: folder, text_only: false });
  assert.equal(((await res.json()) as FolderStatus).text_only, false);
  assert.equal(engine.folderSpecs()[0].text_only, undefined);
  const spec = (await (await call('GET', '/api/settings/spec')).json()) as {
    settings: { key: string; applies: string; default: unknown }[];
  };
  assert.ok(spec.settings.some((s) => s.key === 'mcp.port' && s.applies === 'restart' && s.default === 58012));
  await engine.idle();
});

test('the viewer reads what the MCP read tool serves, and is refused what it refuses', async () => {
  await engine.idle();
  const ok = await call('POST', '/api/read', { path: join(me, 'code', 'main.ts') });
  assert.equal(ok.status, 200);
  const body = (await ok.json()) as { content: string; total_lines: number };
  assert.match(body.content, /answer = 42/);
  for (const path of [
    join(me, 'code', '.env'),
    join(me, 'notes', 'a.md'),
    join(me, '.config', 'Cairn', 'admin-token'),
  ]) {
    const res = await call('POST', '/api/read', { path });
    assert.equal(res.status, 403, path);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'path_outside_folders', path);
  }
  assert.equal(
    (await call('POST', '/api/read', { path: join(me, 'code', 'main.ts'), start_line: 0 })).status,
    400,
    'the read contract checks the lines',
  );
  assert.equal((await fetch(`${server.url}/api/read`, { method: 'POST', body: '{}' })).status, 401);
});
