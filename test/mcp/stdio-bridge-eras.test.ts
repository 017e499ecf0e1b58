/**
 * The stdio bridge (cairn mcp --stdio while an engine runs) carries both eras: a 2026-07-28
 * message gets the standard headers from its own `_meta` and method, so the engine's HTTP
 * endpoint serves it rather than refusing it (-32020), and a 2025-era session still works. Real
 * bridge, real engine over HTTP; stdin/stdout are in-memory streams.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { StdioBridge } from '../../main/engine/mcp/stdio-bridge.js';
import { startFixture, type Fixture } from './fixtures.js';

let fx: Fixture;
before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

function bridge() {
  const input = new PassThrough();
  const output = new PassThrough();
  const b = new StdioBridge({ input, output, resolve: async () => ({ url: fx.mcpUrl }) });
  b.start();
  const lines: Record<string, unknown>[] = [];
  let buf = '';
  output.setEncoding('utf8');
  output.on('data', (c: string) => {
    buf += c;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      buf = buf.slice(nl + 1);
    }
  });
  const ask = async (msg: Record<string, unknown>) => {
    input.write(`${JSON.stringify(msg)}\n`);
    // A bound on waiting, not a speed check: the first search of an engine loads the model, which
    // takes tens of seconds on a loaded machine.
    for (let i = 0; i < 2400; i++) {
      const found = lines.find((l) => l.id === msg.id);
      if (found) return found as { result?: Record<string, unknown>; error?: { code: number; message: string } };
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no answer to ${JSON.stringify(msg)}`);
  };
  return { ask, stop: () => b.stop() };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bridge-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

test('2026-07-28 over the bridge: server/discover, tools/list and a search are served', async () => {
  const b = bridge();
  try {
    const discover = await b.ask({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    assert.equal(discover.error, undefined, JSON.stringify(discover.error));
    assert.deepEqual(discover.result!.supportedVersions, ['2026-07-28']);
    const list = await b.ask({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
    assert.deepEqual((list.result!.tools as { name: string }[]).map((t) => t.name), ['search', 'read']);
    const call = await b.ask({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: { query: 'exponential backoff', top_k: 1 }, _meta: META } });
    const hits = (call.result!.structuredContent as { result: { hits: { path: string }[] } }).result.hits;
    assert.ok(hits[0].path.endsWith('retry.md'));
  } finally {
    await b.stop();
  }
});

test('2025-era over the same bridge still initializes and calls; a bad 2026 envelope is refused, not served as 2025', async () => {
  const b = bridge();
  try {
    const init = await b.ask({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } });
    assert.equal(init.result!.protocolVersion, '2025-11-25');
    const call = await b.ask({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'lighthouse budget', top_k: 1 } } });
    assert.ok(((call.result!.structuredContent as { result: { hits: { path: string }[] } }).result.hits[0].path).endsWith('budget.md'));
    const future = await b.ask({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
    assert.equal(future.error?.code, -32022);
  } finally {
    await b.stop();
  }
});
