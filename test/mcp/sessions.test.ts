/**
 * Stateful sessions are bounded without locking anyone out (issue 12 §6): a flood of
 * unauthenticated `initialize` calls over real HTTP leaves a new client able to start and use a
 * session, and a client that is using its session keeps it. The eviction order and the bounds
 * are checked on the table itself with a clock the test moves.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpStatus } from '../../main/common/status.js';
import { MAX_SESSIONS, SessionTable, type SessionEntry } from '../../main/engine/mcp/sessions.js';
import { connect, startFixture, INIT, MCP_HEADERS, type Fixture } from './fixtures.js';

let fx: Fixture;
before(async () => {
  fx = await startFixture({ 'mcp.stateless_http': false });
});
after(async () => {
  await fx.close();
});

async function initialize(): Promise<string> {
  const res = await fetch(fx.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  return res.headers.get('mcp-session-id') ?? '';
}

test(`${MAX_SESSIONS + 44} unauthenticated initialize calls do not lock out a new client, nor end a session in use`, async () => {
  const busy = await connect(fx.mcpUrl);
  const top = async () =>
    (
      (await busy.callTool({ name: 'search', arguments: { query: 'lighthouse budget', top_k: 1 } }))
        .structuredContent as { result: { hits: { path: string }[] } }
    ).result.hits[0].path;
  assert.ok((await top()).endsWith('budget.md'));
  const flood: string[] = [];
  for (let i = 0; i < MAX_SESSIONS + 44; i++) {
    flood.push(await initialize());
    // The client in use keeps using its session meanwhile.
    if (i % 16 === 0) assert.ok((await top()).endsWith('budget.md'), `the busy client still works after ${i} floods`);
  }
  const open = ((await (await fx.admin('GET', '/api/mcp/status')).json()) as McpStatus).transport.sessions;
  assert.ok(open > 0 && open <= MAX_SESSIONS, `bounded: ${open} open`);
  const fresh = await connect(fx.mcpUrl);
  const res = await fresh.callTool({ name: 'search', arguments: { query: 'exponential backoff', top_k: 1 } });
  assert.ok(
    (res.structuredContent as { result: { hits: { path: string }[] } }).result.hits[0].path.endsWith('retry.md'),
    'a new client gets a working session',
  );
  assert.ok((await top()).endsWith('budget.md'), 'the busy client still has its session');
  // The flood's first sessions made room: they are gone (404), as a client whose session ended expects.
  const gone = await fetch(fx.mcpUrl, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-session-id': flood[0], 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
  await Promise.all([busy.close(), fresh.close()]);
});

test('a session id works only with the credentials that opened it', async () => {
  const key = (await fx.apiKeys.get()) ?? (await fx.apiKeys.rotate());
  const sid = await initialize();
  const list = (headers: Record<string, string>) =>
    fetch(fx.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
  const other = await list({ authorization: `Bearer ${key}` });
  assert.equal(other.status, 404, 'other credentials do not reach the session');
  await other.body?.cancel();
  const own = await list({});
  assert.equal(own.status, 200, 'control: the credentials that opened it do');
  await own.body?.cancel();
});

interface Fake extends SessionEntry {
  closed: boolean;
}

function table(max: number, perClient: number, idleMs: number) {
  let now = 1000;
  const t = new SessionTable<Fake>({ max, perClient, idleMs }, () => now);
  const add = (id: string, client: string) => {
    t.makeRoom(client);
    const e: Fake = { client, lastSeen: now, uses: 1, closed: false, close: async () => void (e.closed = true) };
    t.add(id, e);
    return e;
  };
  return { t, add, tick: (ms: number) => (now += ms) };
}

test('eviction: never-used sessions first, then the longest unused; each client within its own bound', () => {
  const { t, add, tick } = table(4, 2, 60_000);
  const a = add('a', 'alice');
  tick(1);
  const b = add('b', 'bob');
  tick(1);
  assert.ok(t.touch('a'), 'alice uses her session');
  tick(1);
  const c = add('c', 'carol');
  tick(1);
  const d = add('d', 'dave');
  tick(1);
  const e = add('e', 'eve');
  assert.equal(t.size, 4);
  assert.ok(b.closed, 'the table was full: bob never used his session, the oldest such: it goes first');
  assert.ok(!a.closed && !c.closed && !d.closed, 'alice used hers; carol and dave are newer');
  const e2 = add('e2', 'eve');
  assert.ok(c.closed, 'full again: the oldest never-used session goes (carol)');
  tick(1);
  add('e3', 'eve');
  assert.ok(e.closed, 'eve at her own bound pushes out her own oldest session');
  assert.ok(!e2.closed && !d.closed && !a.closed, "and nobody else's");
  assert.equal(t.size, 4);
});

test('idle sessions end after the idle timeout, used ones do not', () => {
  const { t, add, tick } = table(10, 10, 1000);
  const idle = add('idle', 'x');
  add('used', 'y');
  tick(600);
  assert.ok(t.touch('used'));
  tick(600);
  assert.equal(t.endIdle(), 1);
  assert.ok(idle.closed);
  assert.equal(t.touch('idle'), undefined);
  assert.ok(t.touch('used'), 'control: the used session is still there');
});
