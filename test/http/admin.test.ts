/** The admin API over real HTTP against the real engine: auth, status/restart, probe, settings, key, folders, jobs, search. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineStatus, JobInfo, McpStatus, ModelInfo, ProbeResult } from '../../main/common/status.js';
import { setIndexingPaused } from '../../main/app/admin-client.js';
import { startFixture, type Fixture } from '../mcp/fixtures.js';
import { Ajv } from 'ajv';
import { ADMIN_API, type AdminRoute } from '../../main/common/admin-api.js';

let fx: Fixture;

before(async () => {
  fx = await startFixture();
});

after(async () => {
  await fx.close();
});

const status = async () => (await (await fx.admin('GET', '/api/mcp/status')).json()) as McpStatus;

test('every /api request needs the admin token, an allowed Host and Origin, and no credential in the URL', async () => {
  const url = `${fx.server.url}/api/mcp/status`;
  const none = await fetch(url);
  assert.equal(none.status, 401);
  assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
  assert.equal(((await none.json()) as { error: { code: string } }).error.code, 'unauthorized');
  assert.equal((await fetch(url, { headers: { authorization: `Bearer ${fx.adminToken}x` } })).status, 401);
  assert.equal((await fx.admin('GET', '/api/mcp/status', undefined, { origin: 'http://evil.example' })).status, 403);
  assert.equal((await fx.admin('GET', '/api/mcp/status', undefined, { origin: 'null' })).status, 403);
  assert.equal(
    (await fx.admin('GET', '/api/mcp/status', undefined, { origin: fx.server.url })).status,
    200,
    'the workbench origin itself',
  );
  assert.equal((await fx.admin('GET', `/api/mcp/status?token=${fx.adminToken}`)).status, 400);
  assert.equal((await fx.admin('GET', '/api/nope')).status, 404);
  const form = await fetch(`${fx.server.url}/api/settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${fx.adminToken}`, 'content-type': 'text/plain' },
    body: JSON.stringify({ values: { 'mcp.require_api_key': false } }),
  });
  assert.equal(form.status, 400, 'admin bodies are JSON only');
});

test('status tells the truth; a defaults change shows restart pending until restart', async () => {
  let s = await status();
  assert.equal(s.running, true);
  assert.equal(s.in_process_url, `${fx.server.url}/mcp`);
  assert.equal(s.advertised_url, `${fx.server.url}/mcp`, 'the default public_base_url follows the bound port');
  assert.deepEqual(s.transport, {
    stateless: true,
    json_response: true,
    protocol_versions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'],
    sessions: 0,
  });
  assert.deepEqual(s.tools, ['search', 'read']);
  assert.equal(s.security.loopback_only, true);
  assert.equal(s.defaults_restart_pending, false);
  assert.deepEqual(s.stdio_command, ['cairn', 'mcp', '--stdio']);
  const patch = await fx.admin('PATCH', '/api/settings', {
    values: { 'mcp.default_mode': 'sparse', 'mcp.default_top_k': 5 },
  });
  assert.equal(patch.status, 200);
  s = await status();
  assert.equal(s.defaults_restart_pending, true);
  assert.deepEqual(
    [s.default_mode, s.default_top_k, s.config_default_mode, s.config_default_top_k],
    ['tribrid', 20, 'sparse', 5],
  );
  const restarted = (await (await fx.admin('POST', '/api/mcp/restart')).json()) as McpStatus;
  assert.equal(restarted.defaults_restart_pending, false);
  assert.deepEqual([restarted.default_mode, restarted.default_top_k], ['sparse', 5]);
  assert.ok(restarted.requests.total >= 0);
  fx.engine.settings.set({ 'mcp.default_mode': 'tribrid', 'mcp.default_top_k': 20 });
  await fx.server.restartMcp();
});

test('settings: PATCH refuses invalid values naming key and rule, writes nothing; validate reports', async () => {
  const bad = await fx.admin('PATCH', '/api/settings', {
    values: { 'mcp.default_top_k': 500, 'mcp.toolset': 'agent' },
  });
  assert.equal(bad.status, 400);
  const body = (await bad.json()) as { error: { code: string; details: { issues: { key: string; rule: string }[] } } };
  assert.equal(body.error.code, 'config_invalid');
  assert.equal(body.error.details.issues[0].key, 'mcp.default_top_k');
  assert.ok(body.error.details.issues[0].rule);
  assert.equal(fx.engine.settings.get('mcp.default_top_k'), 20, 'nothing was written');
  const v = (await (
    await fx.admin('POST', '/api/settings/validate', { values: { 'mcp.allowed_origins': ['not a url'] } })
  ).json()) as { ok: boolean; issues: { key: string }[] };
  assert.equal(v.ok, false);
  assert.equal(v.issues[0].key, 'mcp.allowed_origins');
  const all = (await (await fx.admin('GET', '/api/settings')).json()) as { values: Record<string, unknown> };
  assert.equal(all.values['mcp.mount_path'], '/mcp');
  assert.equal((await fx.admin('PATCH', '/api/settings', [1, 2])).status, 400);
});

test('probe: a real MCP round trip with the captured defaults, also with a required key', async () => {
  const res = await fx.admin('POST', '/api/mcp/probe', { query: 'exponential backoff' });
  assert.equal(res.status, 200);
  const p = (await res.json()) as ProbeResult;
  assert.ok(p.ok);
  if (!p.ok) return;
  assert.deepEqual(p.tools, ['search', 'read']);
  assert.equal(p.transport_url, `${fx.server.url}/mcp`);
  assert.equal(p.transport_label, 'in-process');
  assert.ok(p.hits[0].path.endsWith('retry.md'));
  assert.ok(p.latency_ms >= 0);

  const key = (await (await fx.admin('POST', '/api/mcp/api-key', { action: 'generate' })).json()) as { key: string };
  fx.engine.settings.set({ 'mcp.require_api_key': true });
  try {
    assert.equal(
      (await fx.admin('POST', '/api/mcp/probe', { query: 'budget' })).status,
      200,
      'the probe sends the key',
    );
    assert.ok(key.key);
  } finally {
    fx.engine.settings.set({ 'mcp.require_api_key': false });
  }
  assert.equal((await fx.admin('POST', '/api/mcp/probe', { query: '' })).status, 400);
});

test('probe: MCP disabled is a typed 503', async () => {
  fx.engine.settings.set({ 'mcp.enabled': false });
  try {
    const res = await fx.admin('POST', '/api/mcp/probe', { query: 'x' });
    assert.equal(res.status, 503);
    const p = (await res.json()) as ProbeResult;
    assert.equal(p.ok, false);
    if (!p.ok) assert.equal(p.error.code, 'dependency_unavailable');
  } finally {
    fx.engine.settings.set({ 'mcp.enabled': true });
  }
});

test('api key: set?, reveal, generate once, rotate; kept out of the config file, file mode 0600', async () => {
  const get = (q = '') =>
    fx.admin('GET', `/api/mcp/api-key${q}`).then((r) => r.json() as Promise<{ set: boolean; key?: string }>);
  const current = await get();
  assert.equal(current.set, true, 'generated by the probe test');
  assert.equal(current.key, undefined, 'not revealed unless asked');
  const revealed = await get('?reveal=1');
  assert.ok(revealed.key && revealed.key.length >= 40);
  assert.equal((await fx.admin('POST', '/api/mcp/api-key', { action: 'generate' })).status, 409);
  const rotated = (await (await fx.admin('POST', '/api/mcp/api-key', { action: 'rotate' })).json()) as { key: string };
  assert.notEqual(rotated.key, revealed.key);
  assert.equal((await get('?reveal=1')).key, rotated.key);
  const file = join(fx.engine.dataDir, 'mcp-api-key');
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  const config = await readFile(join(fx.engine.dataDir, 'config.json'), 'utf8').catch(() => '');
  assert.ok(!config.includes(rotated.key), 'never in the settings file');
  assert.equal((await fx.admin('POST', '/api/mcp/api-key', { action: 'steal' })).status, 400);
});

test('folders, index jobs, engine status and the search playground', async () => {
  const folders = (await (await fx.admin('GET', '/api/folders')).json()) as { path: string }[];
  assert.deepEqual(
    folders.map((f) => f.path),
    [fx.data],
  );
  const extra = join(fx.root, 'extra');
  await mkdir(extra);
  const added = await fx.admin('POST', '/api/folders', { path: extra });
  assert.equal(added.status, 201);
  assert.equal((await fx.admin('POST', '/api/folders', { path: 'relative/path' })).status, 400);
  const job = await fx.admin('POST', '/api/folders/index', { path: extra, kind: 'update' });
  assert.equal(job.status, 202);
  const jobBody = (await job.json()) as { id: string };
  await fx.engine.idle();
  const jobs = (await (await fx.admin('GET', '/api/jobs')).json()) as { id: string }[];
  assert.ok(jobs.some((j) => j.id === jobBody.id));
  assert.equal((await fx.admin('POST', '/api/jobs/action', { id: jobBody.id, action: 'explode' })).status, 400);
  assert.equal((await fx.admin('DELETE', '/api/folders', { path: extra })).status, 200);
  const st = (await (await fx.admin('GET', '/api/status')).json()) as { folders: unknown[]; version: string };
  assert.equal(st.folders.length, 1);

  const search = await fx.admin('POST', '/api/search', { query: 'lighthouse budget' });
  assert.equal(search.status, 200);
  const sr = (await search.json()) as { hits: { path: string }[]; legs_answered: string[]; mode: string };
  assert.equal(sr.mode, 'tribrid', 'the mounted default, as the MCP tool uses');
  assert.deepEqual([...sr.legs_answered].sort(), ['graph', 'sparse', 'vector']);
  assert.ok(sr.hits[0].path.endsWith('budget.md'));
  const bad = await fx.admin('POST', '/api/search', { query: 'x', top_k: 0 });
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as { error: { code: string } }).error.code, 'invalid_argument');
});

test('pause/resume all indexing: jobs queued while paused wait, status says paused, resume lets them finish', async () => {
  const paused = await fx.admin('POST', '/api/jobs/paused', { paused: true });
  assert.equal(paused.status, 200);
  assert.deepEqual(await paused.json(), { paused: true });
  const folder = join(fx.root, 'paused-folder');
  await mkdir(folder);
  await writeFile(join(folder, 'tide.md'), '# Tides\n\nHigh water at the northern pier.\n');
  assert.equal((await fx.admin('POST', '/api/folders', { path: folder })).status, 201);
  const job = (await (
    await fx.admin('POST', '/api/folders/index', { path: folder, kind: 'update' })
  ).json()) as JobInfo;
  let st = (await (await fx.admin('GET', '/api/status')).json()) as EngineStatus;
  assert.equal(st.paused, true);
  assert.equal(st.jobs.find((j) => j.id === job.id)?.state, 'paused', 'a job submitted while paused waits');

  const resumed = await fx.admin('POST', '/api/jobs/paused', { paused: false });
  assert.deepEqual(await resumed.json(), { paused: false });
  await fx.engine.idle();
  st = (await (await fx.admin('GET', '/api/status')).json()) as EngineStatus;
  assert.equal(st.paused, false);
  assert.equal(st.jobs.find((j) => j.id === job.id)?.state, 'done');
  assert.equal(st.folders.find((f) => f.path === folder)?.files, 1);

  // The desktop tray's call (main/app/admin-client.ts) goes through the same route.
  const shell = { baseUrl: fx.server.url, adminToken: fx.adminToken };
  assert.equal(await setIndexingPaused(shell, true), true);
  assert.equal((await fx.engine.status()).paused, true);
  assert.equal(await setIndexingPaused(shell, false), false);
  assert.equal((await fx.engine.status()).paused, false);

  for (const bad of [{}, { paused: 'yes' }, { paused: 1 }]) {
    const res = await fx.admin('POST', '/api/jobs/paused', bad);
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_argument');
  }
  assert.equal((await fx.admin('DELETE', '/api/folders', { path: folder })).status, 200);
});

test('the known models, with whether each is on this computer', async () => {
  const res = await fx.admin('GET', '/api/models');
  assert.equal(res.status, 200);
  const models = (await res.json()) as ModelInfo[];
  assert.equal(models[0].id, 'cairn/use-lite');
  assert.deepEqual([models[0].builtin, models[0].available, models[0].dimensions], [true, true, 512]);
  const hub = models.filter((m) => !m.builtin);
  assert.ok(hub.length >= 3);
  for (const m of hub) {
    assert.equal(m.available, false, `${m.id} is not downloaded in a fresh data folder`);
    assert.ok(m.size_mb > 0 && m.description, m.id);
  }
});

test('probe: a contract mismatch is a typed 409 with its remedy', async () => {
  fx.engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
  for (let i = 0; i < 100 && !(await fx.engine.status()).contract_mismatch; i++)
    await new Promise((r) => setTimeout(r, 50));
  const res = await fx.admin('POST', '/api/mcp/probe', { query: 'backoff' });
  assert.equal(res.status, 409);
  const p = (await res.json()) as ProbeResult;
  assert.equal(p.ok, false);
  if (!p.ok) {
    assert.equal(p.error.code, 'embedding_contract_mismatch');
    assert.ok(p.error.remedy);
    assert.deepEqual(p.tools, ['search', 'read']);
  }
});

test('probe: a required retrieval leg that cannot run is a typed 503', async () => {
  // An index built for a model that is not on this computer: the vector leg cannot run.
  const broken = await startFixture({}, { before: { 'embedding.model': 'nobody/no-such-model' } });
  try {
    const res = await broken.admin('POST', '/api/mcp/probe', { query: 'backoff' });
    assert.equal(res.status, 503);
    const p = (await res.json()) as ProbeResult;
    if (!p.ok) assert.equal(p.error.code, 'required_retrieval_leg_failed');
    assert.equal(p.ok, false);
  } finally {
    await broken.close();
  }
});

test('each route of the table checks its declared request: a body missing a required field is refused, naming it', async () => {
  const checked = (Object.values(ADMIN_API) as AdminRoute[]).filter(
    (r) => r.input === 'body' && (r.request?.required?.length ?? 0) > 0,
  );
  assert.ok(checked.length >= 10, `${checked.length} routes declare a required field`);
  for (const r of checked) {
    const res = await fx.admin(r.method, r.path, {});
    const body = (await res.json()) as { error: { code: string; details?: { key?: string } } };
    assert.equal(res.status, 400, `${r.method} ${r.path}`);
    assert.equal(body.error.code, 'invalid_argument', `${r.method} ${r.path}`);
    assert.equal(body.error.details?.key, r.request?.required?.[0], `${r.method} ${r.path}`);
  }
  // Control: a wrong type is refused by the same schema, and the same route with a valid body answers.
  const wrong = await fx.admin('POST', '/api/jobs/paused', { paused: 'yes' });
  assert.equal(wrong.status, 400);
  assert.match(((await wrong.json()) as { error: { message: string } }).error.message, /paused must be a boolean/);
  const ok = await fx.admin('POST', '/api/jobs/paused', { paused: false });
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { paused: false });
});

test('the answers of routes that declare a response schema are what the schema says (Ajv judges)', async () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const judge = (r: AdminRoute, value: unknown) => {
    const validate = ajv.compile(JSON.parse(JSON.stringify(r.response)) as object);
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };
  const calls: [AdminRoute, unknown][] = [
    [ADMIN_API.settings, undefined],
    [ADMIN_API.validateSettings, { values: { 'mcp.default_top_k': 0 } }],
    [ADMIN_API.apiKey, undefined],
    [ADMIN_API.setPaused, { paused: false }],
  ];
  for (const [r, body] of calls) {
    const res = await fx.admin(r.method, r.path, body);
    assert.equal(res.status, r.status, `${r.method} ${r.path}`);
    const value = await res.json();
    assert.equal(judge(r, value), null, `${r.method} ${r.path}: ${JSON.stringify(value)}`);
  }
  // Control: the schemas are strict enough to catch a field they do not declare, or a wrong type.
  assert.notEqual(judge(ADMIN_API.setPaused, { paused: false, extra: 1 }), null);
  assert.notEqual(judge(ADMIN_API.apiKey, { set: 'yes' }), null);
});
