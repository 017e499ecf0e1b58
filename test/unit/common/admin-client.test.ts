// Unit: the admin client is generated from the route table (main/common/admin-api.ts). The
// transport is a recorder standing in for fetch: the client's own code runs as shipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_API, type AdminRouteName } from '../../../main/common/admin-api.js';
import { adminClient, queryString, type AdminCall, type CallOptions } from '../../../main/common/admin-client.js';

interface Sent {
  method: string;
  path: string;
  body: unknown;
  opts?: CallOptions;
}

function recorder(): { call: AdminCall; sent: Sent[] } {
  const sent: Sent[] = [];
  const call = (async (method: string, path: string, body?: unknown, opts?: CallOptions) => {
    sent.push({ method, path, body, opts });
    return { ok: true };
  }) as AdminCall;
  return { call, sent };
}

test('the client has one call per route of the table, each sent with its method, path and input', async () => {
  const { call, sent } = recorder();
  const client = adminClient(call);
  const names = Object.keys(ADMIN_API) as AdminRouteName[];
  assert.deepEqual(Object.keys(client).sort(), [...names].sort());
  for (const name of names) {
    const r = ADMIN_API[name];
    sent.length = 0;
    const req = r.input === 'none' ? undefined : { path: '/x y', extra: 1 };
    await (client[name] as (req?: unknown) => Promise<unknown>)(req);
    assert.equal(sent.length, 1, name);
    const [one] = sent;
    assert.equal(one.method, r.method, name);
    if (r.input === 'query') {
      assert.equal(one.path, `${r.path}?path=%2Fx+y&extra=1`, name);
      assert.equal(one.body, undefined, name);
    } else {
      assert.equal(one.path, r.path, name);
      assert.deepEqual(one.body, r.input === 'body' ? req : undefined, name);
    }
    assert.equal(one.opts?.acceptErrorBody, 'failureIsResult' in r, name);
  }
});

test('a route that is sent nothing sends no body; a query route leaves out absent and empty values', async () => {
  const { call, sent } = recorder();
  const client = adminClient(call);
  await (client.restartMcp as () => Promise<unknown>)();
  await client.folderFiles({ path: '/f', q: '', offset: 0, show: undefined });
  await client.apiKey();
  assert.deepEqual(
    sent.map((s) => [s.method, s.path, s.body]),
    [
      ['POST', '/api/mcp/restart', undefined],
      ['GET', '/api/folders/files?path=%2Ff&offset=0', undefined],
      ['GET', '/api/mcp/api-key', undefined],
    ],
  );
  // Control: the encoder keeps what is given (a zero, false) and drops only absent and empty values.
  assert.equal(queryString({ a: 0, b: false, c: null, d: '', e: 'x' }), 'a=0&b=false&e=x');
});

test('every route has a distinct method and path, under /api', () => {
  const keys = Object.values(ADMIN_API).map((r) => `${r.method} ${r.path}`);
  assert.equal(new Set(keys).size, keys.length, 'two routes share a method and path');
  for (const k of keys) assert.match(k, /^(GET|POST|PATCH|DELETE) \/api\//);
});

test("the client's request types are the route schemas: an undeclared field or a wrong type does not compile", async () => {
  const { call, sent } = recorder();
  const client = adminClient(call);
  // Each line below is a compile error (npm run typecheck fails on an unused @ts-expect-error).
  // @ts-expect-error -- `surprise` is no field of the folder spec
  await client.addFolder({ path: '/f', surprise: 1 });
  // @ts-expect-error -- a folder's options: `include` needs a re-add
  await client.updateFolder({ path: '/f', include: ['*.md'] });
  // @ts-expect-error -- the settings patch is `values` and `confirm`
  await client.updateSettings({ values: {}, force: true });
  // @ts-expect-error -- `top_k` is an integer
  await client.search({ query: 'q', top_k: '5' });
  // @ts-expect-error -- `path` is required
  await client.read({ start_line: 1 });
  // @ts-expect-error -- a route sent nothing takes no request
  await client.loadModel({ model: 'x' });
  // Control: what the schemas declare compiles, and is sent as given.
  await client.addFolder({ path: '/f', include: ['*.md'], exclude: [], include_secrets: true, text_only: true });
  await client.updateSettings({ values: { 'mcp.default_top_k': 5 }, confirm: true });
  assert.equal(sent.length, 8);
  assert.deepEqual(sent[6].body, {
    path: '/f',
    include: ['*.md'],
    exclude: [],
    include_secrets: true,
    text_only: true,
  });
});
