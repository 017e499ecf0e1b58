/** Streamable HTTP modes over real sockets: stateless/stateful × JSON/SSE, sessions, concurrency. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, startFixture, INIT, MCP_HEADERS, toolCall, type Fixture } from './fixtures.js';

// One real engine for the file; each mode is a remount with other settings, as `POST /api/mcp/restart` does.
let fx: Fixture;
before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

async function searchOnce(mcpUrl: string): Promise<unknown[]> {
  const client = await connect(mcpUrl);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'search'));
    const res = await client.callTool({ name: 'search', arguments: { query: 'exponential backoff retries' } });
    assert.equal(res.isError, undefined);
    const hits = (res.structuredContent as { result: { hits: { path: string }[] } }).result.hits;
    assert.ok(hits.length > 0, 'search found the retry note');
    assert.ok(hits.some((h) => h.path.endsWith('retry.md')));
    return hits;
  } finally {
    await client.close();
  }
}

for (const [stateless, json] of [
  [true, true],
  [true, false],
  [false, true],
  [false, false],
] as const) {
  test(`SDK client works with stateless=${stateless} json_response=${json}`, async () => {
    fx.engine.settings.set({ 'mcp.stateless_http': stateless, 'mcp.json_response': json });
    await fx.server.restartMcp();
    try {
      await searchOnce(fx.mcpUrl);
      const res = await fetch(fx.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', json ? /application\/json/ : /text\/event-stream/);
      const sid = res.headers.get('mcp-session-id');
      await res.body?.cancel();
      if (stateless) {
        assert.equal(sid, null, 'no session id in stateless mode');
        for (const method of ['GET', 'DELETE']) {
          const r = await fetch(fx.mcpUrl, { method, headers: { accept: 'text/event-stream' } });
          assert.equal(r.status, 405, `${method} answers 405 when stateless`);
          await r.body?.cancel();
        }
      } else {
        assert.ok(sid && sid.length >= 40, 'a long random session id');
        const again = await fetch(fx.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
        assert.notEqual(again.headers.get('mcp-session-id'), sid, 'each session gets its own id');
        await again.body?.cancel();
        // GET opens the session's stream.
        const ac = new AbortController();
        const get = await fetch(fx.mcpUrl, {
          method: 'GET',
          headers: { accept: 'text/event-stream', 'mcp-session-id': sid },
          signal: ac.signal,
        });
        assert.equal(get.status, 200);
        assert.match(get.headers.get('content-type') ?? '', /text\/event-stream/);
        ac.abort();
        // An unknown session is 404; DELETE ends a session, after which it is unknown.
        const unknown = await fetch(fx.mcpUrl, {
          method: 'POST',
          headers: { ...MCP_HEADERS, 'mcp-session-id': 'nope' },
          body: JSON.stringify(toolCall(2, 'search', { query: 'x' })),
        });
        assert.equal(unknown.status, 404);
        await unknown.body?.cancel();
        const del = await fetch(fx.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': sid } });
        assert.equal(del.status, 200);
        const after = await fetch(fx.mcpUrl, {
          method: 'POST',
          headers: { ...MCP_HEADERS, 'mcp-session-id': sid },
          body: JSON.stringify(toolCall(3, 'search', { query: 'x' })),
        });
        assert.equal(after.status, 404, 'a deleted session is gone');
        await after.body?.cancel();
      }
    } finally {
      fx.engine.settings.set({ 'mcp.stateless_http': true, 'mcp.json_response': true });
    }
  });
}

/** Reads the JSON-RPC response from a JSON or SSE body. */
async function rpcResult(
  res: Response,
): Promise<{ id: unknown; result: { structuredContent: { result: { hits: { path: string }[] } } } }> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .find((d) => d.includes('"result"'));
    return JSON.parse(data ?? 'null');
  }
  return JSON.parse(text);
}

test('two clients sending the same JSON-RPC ids at once each get their own answer', async () => {
  fx.engine.settings.set({ 'mcp.stateless_http': true, 'mcp.json_response': true });
  await fx.server.restartMcp();
  try {
    const ask = (query: string) =>
      fetch(fx.mcpUrl, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify(toolCall(7, 'search', { query, top_k: 1 })),
      }).then(rpcResult);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => ask(i % 2 === 0 ? 'exponential backoff' : 'lighthouse budget euros')),
    );
    results.forEach((r, i) => {
      assert.equal(r.id, 7);
      const top = r.result.structuredContent.result.hits[0];
      assert.ok(
        top.path.endsWith(i % 2 === 0 ? 'retry.md' : 'budget.md'),
        `answer ${i} is for its own query (got ${top.path})`,
      );
    });
  } finally {
    fx.engine.settings.set({ 'mcp.default_top_k': 20 });
  }
});

test('stateful: two SDK clients (whose request ids coincide) in parallel each get their own answers', async () => {
  fx.engine.settings.set({ 'mcp.stateless_http': false, 'mcp.json_response': false });
  await fx.server.restartMcp();
  try {
    const [a, b] = await Promise.all([connect(fx.mcpUrl), connect(fx.mcpUrl)]);
    const top = async (c: Awaited<ReturnType<typeof connect>>, query: string) =>
      (
        (await c.callTool({ name: 'search', arguments: { query, top_k: 1 } })).structuredContent as {
          result: { hits: { path: string }[] };
        }
      ).result.hits[0].path;
    const paths = await Promise.all([
      top(a, 'exponential backoff'),
      top(b, 'lighthouse budget euros'),
      top(a, 'lighthouse budget euros'),
      top(b, 'exponential backoff'),
    ]);
    assert.ok(paths[0].endsWith('retry.md') && paths[3].endsWith('retry.md'), paths.join());
    assert.ok(paths[1].endsWith('budget.md') && paths[2].endsWith('budget.md'), paths.join());
    await Promise.all([a.close(), b.close()]);
  } finally {
    fx.engine.settings.set({ 'mcp.stateless_http': true, 'mcp.json_response': true });
    await fx.server.restartMcp();
  }
});

test('restart remounts the server in place: the captured defaults follow the settings only then', async () => {
  fx.engine.settings.set({ 'mcp.default_top_k': 1 });
  await fx.server.restartMcp();
  try {
    const client = await connect(fx.mcpUrl);
    const count = async () =>
      (
        (await client.callTool({ name: 'search', arguments: { query: 'the' } })).structuredContent as {
          result: { hits: unknown[] };
        }
      ).result.hits.length;
    assert.equal(await count(), 1);
    fx.engine.settings.set({ 'mcp.default_top_k': 3 });
    assert.equal(await count(), 1, 'defaults are the ones captured at mount time');
    await fx.server.restartMcp();
    assert.equal(await count(), 3, 'after a remount the new default applies');
    await client.close();
  } finally {
    fx.engine.settings.set({ 'mcp.default_top_k': 20 });
  }
});
