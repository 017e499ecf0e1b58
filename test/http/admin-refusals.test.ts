/**
 * Every admin route's refusals, from the real engine over real HTTP: a request its schema does
 * not allow (an undeclared field or parameter, a wrong type, a required field left out) is the
 * declared error envelope (ERROR_ENVELOPE_SCHEMA, judged by Ajv) with `invalid_argument`, the
 * status its code maps to, and `details.key` naming the field; and it is refused before the
 * handler runs (nothing is removed, paused, rotated or written). Controls: the same requests
 * well formed are not refused, and the judge refuses envelopes that differ from the declaration.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { ADMIN_API, type AdminRoute, type AdminRouteName } from '../../main/common/admin-api.js';
import { ERROR_ENVELOPE_SCHEMA, httpStatusFor } from '../../main/common/errors.js';
import type { EngineStatus } from '../../main/common/status.js';
import { startFixture, type Fixture } from '../mcp/fixtures.js';

let fx: Fixture;
const judgeEnvelope = new Ajv({ strict: false, allErrors: true }).compile(
  JSON.parse(JSON.stringify(ERROR_ENVELOPE_SCHEMA)) as object,
);

before(async () => {
  fx = await startFixture();
});

after(async () => {
  await fx.close();
});

type Kind = 'unknown' | 'type' | 'missing';
/** A bad request: URL parameters (`query`) and/or a JSON body, and the field the refusal must name. */
interface Bad {
  kind: Kind;
  query?: string;
  body?: unknown;
  key: string;
}

/** Filled in once the fixture is up (paths under it); typed by the table so a new route needs its cases. */
function badRequests(): Record<AdminRouteName, Bad[]> {
  const folder = fx.data;
  const file = join(fx.data, 'notes', 'budget.md');
  const param = { kind: 'unknown', query: 'surprise=1', key: 'surprise' } as const;
  const field = (body: object): Bad => ({ kind: 'unknown', body: { ...body, surprise: 1 }, key: 'surprise' });
  return {
    engineStatus: [param],
    mcpStatus: [param],
    settings: [param],
    settingsSpec: [param],
    folders: [param],
    jobs: [param],
    models: [param],
    restartMcp: [param, { kind: 'unknown', body: { surprise: 1 }, key: 'surprise' }],
    loadModel: [param, { kind: 'unknown', body: { model: 'x' }, key: 'model' }],
    probe: [
      field({ query: 'budget' }),
      { kind: 'type', body: { query: 5 }, key: 'query' },
      { kind: 'type', body: { query: 'budget', era: '1999' }, key: 'era' },
      { kind: 'missing', body: {}, key: 'query' },
    ],
    updateSettings: [
      field({ values: {} }),
      { kind: 'unknown', body: { values: {}, value: { 'mcp.default_top_k': 5 } }, key: 'value' },
      { kind: 'type', body: { values: 5 }, key: 'values' },
      { kind: 'type', body: { values: {}, confirm: 'yes' }, key: 'confirm' },
      { kind: 'missing', body: {}, key: 'values' },
    ],
    validateSettings: [
      field({ values: {} }),
      { kind: 'type', body: { values: [] }, key: 'values' },
      { kind: 'missing', body: { confirm: true }, key: 'values' },
    ],
    apiKey: [param, { kind: 'type', query: 'reveal=maybe', key: 'reveal' }],
    rotateApiKey: [
      field({ action: 'generate' }),
      { kind: 'type', body: { action: 'explode' }, key: 'action' },
      { kind: 'type', body: { action: 'set', key: 5 }, key: 'key' },
      { kind: 'missing', body: {}, key: 'action' },
    ],
    addFolder: [
      field({ path: join(fx.root, 'home') }),
      { kind: 'type', body: { path: 5 }, key: 'path' },
      { kind: 'type', body: { path: join(fx.root, 'home'), include: '*.md' }, key: 'include' },
      { kind: 'type', body: { path: join(fx.root, 'home'), text_only: 'yes' }, key: 'text_only' },
      { kind: 'missing', body: { include: ['*.md'] }, key: 'path' },
    ],
    removeFolder: [
      field({ path: folder }),
      { kind: 'type', body: { path: ['/a'] }, key: 'path' },
      { kind: 'missing', body: {}, key: 'path' },
    ],
    updateFolder: [
      field({ path: folder, text_only: true }),
      { kind: 'unknown', body: { path: folder, include: ['*.md'] }, key: 'include' },
      { kind: 'type', body: { path: folder, text_only: 'yes' }, key: 'text_only' },
      { kind: 'missing', body: { text_only: true }, key: 'path' },
    ],
    folderFiles: [
      { ...param, query: `path=${encodeURIComponent(folder)}&surprise=1` },
      { kind: 'type', query: `path=${encodeURIComponent(folder)}&limit=abc`, key: 'limit' },
      { kind: 'missing', query: 'limit=2', key: 'path' },
    ],
    browse: [param, { kind: 'type', query: 'path=/a&path=/b', key: 'path' }],
    indexFolder: [
      field({ path: folder }),
      { kind: 'type', body: { path: folder, kind: 'later' }, key: 'kind' },
      { kind: 'missing', body: { kind: 'update' }, key: 'path' },
    ],
    jobAction: [
      field({ id: 'j1', action: 'cancel' }),
      { kind: 'type', body: { id: 'j1', action: 'explode' }, key: 'action' },
      { kind: 'missing', body: { action: 'cancel' }, key: 'id' },
    ],
    setPaused: [
      field({ paused: true }),
      { kind: 'type', body: { paused: 'yes' }, key: 'paused' },
      { kind: 'missing', body: {}, key: 'paused' },
    ],
    switchModel: [
      field({ model: 'cairn/use-lite' }),
      { kind: 'type', body: { model: 5 }, key: 'model' },
      { kind: 'missing', body: {}, key: 'model' },
    ],
    search: [
      field({ query: 'budget' }),
      { kind: 'type', body: { query: 'budget', top_k: 'ten' }, key: 'top_k' },
      { kind: 'missing', body: { top_k: 3 }, key: 'query' },
    ],
    read: [
      field({ path: file }),
      { kind: 'type', body: { path: file, start_line: 'one' }, key: 'start_line' },
      { kind: 'missing', body: { start_line: 1 }, key: 'path' },
    ],
    clients: [param, { kind: 'type', query: 'reveal=2', key: 'reveal' }],
    installClient: [
      field({ id: 'cursor', confirm: true }),
      { kind: 'type', body: { id: 'cursor', confirm: 'yes' }, key: 'confirm' },
      { kind: 'missing', body: { confirm: true }, key: 'id' },
    ],
  };
}

interface Answer {
  status: number;
  body: unknown;
}

async function send(r: AdminRoute, bad: Pick<Bad, 'query' | 'body'>): Promise<Answer> {
  const res = await fx.admin(r.method, bad.query ? `${r.path}?${bad.query}` : r.path, bad.body);
  return { status: res.status, body: (await res.json()) as unknown };
}

/** Null when the answer is the declared refusal naming `key`, else what is wrong with it. */
function refusalProblem(a: Answer, key: string): string | null {
  if (!judgeEnvelope(a.body)) return `not the error envelope: ${JSON.stringify(judgeEnvelope.errors)}`;
  const { error } = a.body as { error: { code: 'invalid_argument'; message: string; details?: { key?: unknown } } };
  if (error.code !== 'invalid_argument') return `code ${error.code}`;
  if (a.status !== httpStatusFor(error.code)) return `status ${a.status} for ${error.code}`;
  if (error.details?.key !== key) return `details.key ${JSON.stringify(error.details?.key)}, not ${key}`;
  if (!error.message.includes(key)) return `the message does not name ${key}: ${error.message}`;
  return null;
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

test('every route refuses a request its schema does not allow with the declared error envelope, naming the field', async () => {
  const clientFiles = await filesUnder(fx.clientsHome);
  const table = badRequests();
  assert.deepEqual(Object.keys(table).sort(), Object.keys(ADMIN_API).sort(), 'every route has bad requests');
  let refused = 0;
  for (const [name, bads] of Object.entries(table) as [AdminRouteName, Bad[]][]) {
    const r: AdminRoute = ADMIN_API[name];
    const kinds = new Set(bads.map((b) => b.kind));
    // Each kind of mistake the route's schema can catch is tried on it.
    assert.ok(kinds.has('unknown'), `${name}: an undeclared field or parameter`);
    if (r.request?.required?.length) assert.ok(kinds.has('missing'), `${name}: a required field left out`);
    if (Object.keys(r.request?.properties ?? {}).length) assert.ok(kinds.has('type'), `${name}: a wrong type`);
    for (const bad of bads) {
      const what = `${r.method} ${r.path} ${bad.query ?? ''} ${JSON.stringify(bad.body) ?? ''}`;
      const a = await send(r, bad);
      assert.equal(refusalProblem(a, bad.key), null, `${what}: ${JSON.stringify(a.body)}`);
      refused++;
    }
  }
  assert.ok(refused >= 60, `refusals judged: ${refused}`);

  // Refused before the handler ran: the folder is still indexed, nothing paused, no key made, no config written.
  const status = (await (await fx.admin('GET', '/api/status')).json()) as EngineStatus;
  assert.deepEqual(
    status.folders.map((f) => f.path),
    [fx.data],
  );
  assert.equal(status.paused, false);
  assert.equal(status.folders[0].text_only ?? false, false, 'updateFolder with an undeclared field changed nothing');
  assert.equal(await fx.apiKeys.get(), null, 'no API key was generated');
  assert.deepEqual(await filesUnder(fx.clientsHome), clientFiles, 'no client config was written');
});

test('control: the same requests well formed are not refused', async () => {
  const file = join(fx.data, 'notes', 'budget.md');
  const good: [AdminRouteName, Pick<Bad, 'query' | 'body'>][] = [
    ['engineStatus', {}],
    ['settings', {}],
    ['validateSettings', { body: { values: {} } }],
    ['validateSettings', { body: { values: { 'mcp.default_top_k': 5 }, confirm: true } }],
    ['search', { body: { query: 'budget', top_k: 3 } }],
    ['read', { body: { path: file, start_line: 1 } }],
    ['folderFiles', { query: `path=${encodeURIComponent(fx.data)}&limit=2` }],
    ['apiKey', { query: 'reveal=1' }],
    ['clients', { query: 'reveal=0' }],
    ['updateFolder', { body: { path: fx.data, text_only: false } }],
  ];
  for (const [name, req] of good) {
    const r: AdminRoute = ADMIN_API[name];
    const a = await send(r, req);
    assert.equal(a.status, r.status, `${name} ${JSON.stringify(req)}: ${JSON.stringify(a.body)}`);
    assert.notEqual(refusalProblem(a, 'surprise'), null, `${name}: the refusal check fails on a success`);
  }
  // The settings table still owns the values: an unknown setting key is its config_invalid, in the same envelope.
  const setting = await send(ADMIN_API.updateSettings, { body: { values: { 'mcp.surprise': 1 } } });
  assert.equal(judgeEnvelope(setting.body), true, JSON.stringify(setting.body));
  assert.equal((setting.body as { error: { code: string } }).error.code, 'config_invalid');
  assert.equal(setting.status, httpStatusFor('config_invalid'));
  // A refusal of another kind does not pass for this one: a real conflict is judged valid but named wrong.
  const conflict = await send(ADMIN_API.addFolder, { body: { path: fx.data } });
  assert.equal(conflict.status, 409);
  assert.equal(judgeEnvelope(conflict.body), true, 'a conflict is the declared envelope too');
  assert.match(refusalProblem(conflict, 'path') ?? '', /code conflict/);
});

test('control: the envelope judge refuses an envelope that differs from the declaration', () => {
  const ok = { error: { code: 'invalid_argument', message: 'x', details: { key: 'surprise' } } };
  assert.equal(judgeEnvelope(ok), true, 'control of the control');
  for (const bad of [
    { ...ok, extra: 1 },
    { error: { ...ok.error, code: 'oops' } },
    { error: { code: 'invalid_argument' } },
    { error: { ...ok.error, hint: 'x' } },
    { code: 'invalid_argument', message: 'x' },
  ])
    assert.equal(judgeEnvelope(bad), false, JSON.stringify(bad));
  assert.match(refusalProblem({ status: 200, body: ok }, 'surprise') ?? '', /status 200/);
  assert.match(refusalProblem({ status: 400, body: ok }, 'other') ?? '', /details.key/);
});
