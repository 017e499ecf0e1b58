/**
 * Every admin route's real answer, from the real engine over real HTTP and through the generated
 * admin client, is what the route's declared response schema says (Ajv judges the very schema
 * object the types are read from); a control shows each schema catches an answer that differs.
 * Query routes read their parameters by their declared schema: a malformed one is the typed
 * `invalid_argument` naming the parameter, beside the same request well formed. Every route's
 * refusals (bodies too) are judged by the error envelope schema in admin-refusals.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { ADMIN_API, type AdminRoute, type AdminRouteName } from '../../main/common/admin-api.js';
import { adminClient, type AdminCall } from '../../main/common/admin-client.js';
import type { EngineStatus } from '../../main/common/status.js';
import { startFixture, type Fixture } from '../mcp/fixtures.js';

let fx: Fixture;
const ajv = new Ajv({
  strict: false,
  allErrors: true,
  // The same rule as the contract's own checker (json-schema.ts): Date.parse must accept it.
  formats: { 'date-time': (s: string) => !Number.isNaN(Date.parse(s)) },
});

/** Answers seen per route, with the status each came with. */
const seen = new Map<AdminRouteName, { status: number; value: unknown }[]>();

before(async () => {
  // A hub that refuses at once, so the model switch below fails fast and offline.
  process.env.HF_ENDPOINT = 'http://127.0.0.1:9';
  fx = await startFixture();
});

after(async () => {
  await fx.close();
});

function judge(r: AdminRoute, value: unknown): string | null {
  const validate = ajv.compile(JSON.parse(JSON.stringify(r.response)) as object);
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

let lastStatus = 0;
const transport: AdminCall = async <T>(
  method: string,
  path: string,
  body?: unknown,
  opts: { acceptErrorBody?: boolean } = {},
) => {
  const res = await fx.admin(method, path, body);
  lastStatus = res.status;
  const value = (await res.json()) as unknown;
  if (!res.ok && !opts.acceptErrorBody)
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(value)}`);
  return value as T;
};
const api = adminClient(transport);

/** One call through the generated client, its answer recorded for the judge. */
async function call<K extends AdminRouteName>(name: K, req?: unknown): Promise<unknown> {
  const value = await (api[name] as (req?: unknown) => Promise<unknown>)(req);
  const list = seen.get(name) ?? [];
  list.push({ status: lastStatus, value });
  seen.set(name, list);
  return value;
}

async function until(what: string, pred: (s: EngineStatus) => boolean): Promise<EngineStatus> {
  let s = (await call('engineStatus')) as EngineStatus;
  for (let i = 0; i < 600 && !pred(s); i++) {
    await new Promise((r) => setTimeout(r, 50));
    s = (await call('engineStatus')) as EngineStatus;
  }
  assert.ok(pred(s), `${what}: ${JSON.stringify(s).slice(0, 400)}`);
  return s;
}

test('every route is called for real, and every answer is what its declared schema says', async () => {
  const extra = join(fx.root, 'extra');
  await mkdir(extra, { recursive: true });
  await writeFile(join(extra, 'a.md'), '# Extra\n\nA lighthouse in another folder.\n');

  await call('engineStatus');
  await call('mcpStatus');
  await call('settings');
  await call('settingsSpec');
  await call('validateSettings', { values: { 'mcp.default_top_k': 0 } });
  await call('validateSettings', { values: { 'mcp.default_top_k': 5 } });
  await call('updateSettings', { values: { 'mcp.default_top_k': 5 } });
  await call('models');
  await call('folders');
  await call('browse');
  await call('folderFiles', { path: fx.data });
  await call('folderFiles', { path: fx.data, show: 'skipped', limit: 2 });
  await call('search', { query: 'lighthouse budget' });
  await call('read', { path: join(fx.data, 'notes', 'budget.md') });
  await call('probe', { query: 'budget' });
  fx.engine.settings.set({ 'mcp.enabled': false });
  try {
    const off = (await call('probe', { query: 'budget' })) as { ok: boolean };
    assert.equal(off.ok, false, 'a failed probe is a result, judged by the same schema');
  } finally {
    fx.engine.settings.set({ 'mcp.enabled': true });
  }
  await call('restartMcp');
  await call('apiKey');
  await call('rotateApiKey', { action: 'generate' });
  await call('apiKey', { reveal: true });
  await call('rotateApiKey', { action: 'rotate' });
  await call('clients');
  await call('clients', { reveal: true });
  await call('installClient', { id: 'cursor', confirm: true });
  await call('updateFolder', { path: fx.data, text_only: false });

  // A job held by the engine-wide pause, cancelled by its id: queued, paused and cancelled jobs in the lists.
  await call('setPaused', { paused: true });
  await call('addFolder', { path: extra });
  const job = (await call('indexFolder', { path: extra, kind: 'update' })) as { id: string };
  await call('jobs');
  await call('engineStatus');
  await call('jobAction', { id: job.id, action: 'cancel' });
  await call('setPaused', { paused: false });
  await fx.engine.idle();
  await call('jobs');
  await call('removeFolder', { path: extra });

  await call('loadModel');
  // A model the (refusing) hub cannot give: the switch answers at once, then fails with its remedy.
  await call('switchModel', { model: 'someone/not-on-this-hub' });
  await until('the switch failed', (s) => s.model_switch?.state === 'failed');

  const names = Object.keys(ADMIN_API) as AdminRouteName[];
  assert.deepEqual([...seen.keys()].sort(), [...names].sort(), 'every route of the table was called');
  let judged = 0;
  for (const [name, answers] of seen) {
    const r: AdminRoute = ADMIN_API[name];
    for (const { status, value } of answers) {
      const what = `${r.method} ${r.path}`;
      if (!r.failureIsResult) assert.equal(status, r.status, `${what}: the declared status`);
      assert.equal(judge(r, value), null, `${what}: ${JSON.stringify(value).slice(0, 600)}`);
      judged++;
    }
  }
  assert.ok(judged >= names.length + 10, `answers judged: ${judged}`);
});

test('control: every route schema refuses its own real answer with one undeclared field, or a wrong type', () => {
  assert.ok(seen.size > 0, 'runs after the test above');
  for (const [name, [{ value }]] of seen) {
    const r: AdminRoute = ADMIN_API[name];
    const surprise = Array.isArray(value) ? [...value, { surprise: 1 }] : { ...(value as object), surprise: 1 };
    assert.notEqual(judge(r, surprise), null, `${r.method} ${r.path} catches an undeclared field`);
    assert.notEqual(judge(r, 'not an answer'), null, `${r.method} ${r.path} catches a wrong type`);
  }
  // Deeper: a folder's state outside the declared states, inside the status answer.
  const status = structuredClone(seen.get('engineStatus')![0].value) as EngineStatus;
  assert.equal(judge(ADMIN_API.engineStatus, status), null, 'control of the control: the copy is valid');
  (status.folders[0] as { state: string }).state = 'sleeping';
  assert.match(judge(ADMIN_API.engineStatus, status) ?? '', /state/);
});

/** A query route called with a raw query string (what a browser or curl would send). */
async function raw(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fx.admin('GET', path);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const refusedKey = (r: { status: number; body: Record<string, unknown> }) => {
  const err = r.body.error as { code: string; details?: { key?: string } } | undefined;
  return r.status === 400 && err?.code === 'invalid_argument' ? err.details?.key : `not refused: ${r.status}`;
};

test('query parameters are read by the route schema: malformed ones are invalid_argument naming the parameter', async () => {
  const files = `/api/folders/files?path=${encodeURIComponent(fx.data)}`;
  for (const [query, key] of [
    ['&offset=abc', 'offset'],
    ['&offset=-1', 'offset'],
    ['&offset=1.5', 'offset'],
    ['&limit=0', 'limit'],
    ['&limit=501', 'limit'],
    ['&show=sleeping', 'show'],
    ['&offset=1&offset=2', 'offset'],
    ['&surprise=1', 'surprise'],
  ] as const) {
    assert.equal(refusedKey(await raw(files + query)), key, query);
  }
  assert.equal(refusedKey(await raw('/api/folders/files')), 'path', 'the folder is required');
  assert.equal(refusedKey(await raw('/api/mcp/api-key?reveal=maybe')), 'reveal');
  assert.equal(refusedKey(await raw('/api/clients?reveal=2')), 'reveal');
  assert.equal(refusedKey(await raw('/api/browse?path=/a&path=/b')), 'path');

  // Controls: the same routes well formed; numbers arrive as numbers, `1` and `true` are true.
  const ok = await raw(`${files}&offset=1&limit=2&show=all`);
  assert.equal(ok.status, 200);
  assert.deepEqual([ok.body.offset, ok.body.limit, ok.body.show], [1, 2, 'all']);
  assert.equal(judge(ADMIN_API.folderFiles, ok.body), null);
  assert.equal((await raw(`${files}&offset=`)).body.offset, 0, 'an empty value is not given');
  await fx.apiKeys.rotate();
  for (const on of ['1', 'true'])
    assert.equal(typeof (await raw(`/api/mcp/api-key?reveal=${on}`)).body.key, 'string', on);
  for (const off of ['0', 'false', ''])
    assert.equal((await raw(`/api/mcp/api-key?reveal=${off}`)).body.key, undefined, off);
  assert.equal((await raw('/api/browse?path=')).status, 200, 'no path: the home folder');
});
