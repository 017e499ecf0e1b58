/**
 * One engine, any door, with real processes: `cairn mcp --stdio` (launched by the SDK's stdio
 * client, as Claude Desktop launches it), `cairn serve`, and HTTP clients, started in every
 * order over one data folder. Whoever comes first, the others reach the same engine; nobody is
 * refused with "locked".
 */
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readLock } from '../../main/engine/lock.js';
import { dataPaths } from '../../main/engine/config/paths.js';
import { indexedHome } from '../mcp/fixtures.js';
import { REPO } from '../helpers/cli.js';
import { servedAt, start, type Proc } from '../helpers/processes.js';

const BIN = join(REPO, 'bin', 'cairn.mjs');
let root: string;
let home: string;
const opened: (Client | Proc)[] = [];

before(async () => {
  // The fixture indexed once per run, copied here; ephemeral ports for every engine any door starts.
  ({ root, home } = await indexedHome({ 'mcp.port': 0 }));
});

async function stopEngine(): Promise<void> {
  const owner = await readLock(dataPaths(home).lock);
  if (!owner) return;
  process.kill(owner.pid, 'SIGTERM');
  for (let i = 0; i < 200 && (await readLock(dataPaths(home).lock)); i++) await sleep(100);
}

afterEach(async () => {
  for (const x of opened.splice(0).reverse()) {
    if (x instanceof Client) await x.close().catch(() => undefined);
    else await x.stop();
  }
  await stopEngine();
});

after(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

function stdioClient(env: Record<string, string> = {}): { client: Client; transport: StdioClientTransport } {
  const client = new Client({ name: 'doors-stdio', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--stdio'],
    env: { ...(process.env as Record<string, string>), CAIRN_HOME: home, LANCEDB_LOG: 'error', ...env },
    stderr: 'pipe',
  });
  opened.push(client);
  return { client, transport };
}

async function httpClient(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'doors-http', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {},
    ),
  );
  opened.push(client);
  return client;
}

async function searchFinds(client: Client): Promise<void> {
  const res = (await client.callTool({
    name: 'search',
    arguments: { query: 'exponential backoff' },
  })) as CallToolResult;
  assert.notEqual(res.isError, true, JSON.stringify(res.content));
  assert.ok(
    (res.structuredContent as { result: { hits: { path: string }[] } }).result.hits[0].path.endsWith('retry.md'),
  );
}

function serveProc(): Proc {
  const p = start(process.execPath, [BIN, 'serve'], { CAIRN_HOME: home });
  opened.push(p);
  return p;
}

test('stdio first: it starts the engine in the background; a later serve attaches; HTTP clients outlive the stdio client; serve takes over when that engine stops', async () => {
  const { client, transport } = stdioClient();
  await client.connect(transport);
  assert.ok((await client.listTools()).tools.some((t) => t.name === 'search'));
  await searchFinds(client);
  const owner = await readLock(dataPaths(home).lock);
  assert.ok(owner?.url && owner.mcp, 'the background engine wrote its address');
  assert.notEqual(owner.pid, transport.pid, 'the engine is its own process, not the stdio bridge');
  assert.match(await readFile(join(home, 'logs', 'engine.log'), 'utf8'), /Cairn engine serving/);

  const serve = serveProc();
  await serve.waitFor(/attached to it/);
  const { origin } = await servedAt(serve);
  assert.equal(origin, owner.url);
  const http = await httpClient(owner.mcp);
  await searchFinds(http);

  await client.close();
  await searchFinds(http);
  assert.equal(
    (await readLock(dataPaths(home).lock))?.pid,
    owner.pid,
    'the engine outlives the stdio client that started it',
  );

  // The background engine stops: the attached serve becomes the engine.
  process.kill(owner.pid, 'SIGTERM');
  await serve.waitFor(/Cairn engine serving/);
  const now = await readLock(dataPaths(home).lock);
  assert.equal(now?.pid, serve.child.pid);
  await searchFinds(await httpClient(now!.mcp!));
});

test('serve first: stdio bridges to it (no second engine, no exit 5); serve keeps serving after the stdio client leaves', async () => {
  const serve = serveProc();
  await serve.waitFor(/Cairn engine serving/);
  const { client, transport } = stdioClient();
  await client.connect(transport);
  await searchFinds(client);
  assert.equal((await readLock(dataPaths(home).lock))?.pid, serve.child.pid);
  await client.close();
  const owner = await readLock(dataPaths(home).lock);
  await searchFinds(await httpClient(owner!.mcp!));
});

test('two stdio clients started together share one background engine', async () => {
  await rm(join(home, 'logs', 'engine.log'), { force: true });
  const a = stdioClient();
  const b = stdioClient();
  await Promise.all([a.client.connect(a.transport), b.client.connect(b.transport)]);
  await Promise.all([searchFinds(a.client), searchFinds(b.client)]);
  const owner = await readLock(dataPaths(home).lock);
  assert.ok(owner && owner.pid !== a.transport.pid && owner.pid !== b.transport.pid);
  const log = await readFile(join(home, 'logs', 'engine.log'), 'utf8');
  // Both may have started one: exactly one serves, the other saw the lock and left.
  assert.equal(log.match(/Cairn engine serving/g)?.length, 1, log);
});

test('the key: stdio gets it from the running engine; a client without it is refused (control)', async () => {
  const serve = start(process.execPath, [BIN, 'serve'], { CAIRN_HOME: home });
  opened.push(serve);
  const { token } = await servedAt(serve);
  const owner = await readLock(dataPaths(home).lock);
  const res = await fetch(`${owner!.url}/api/mcp/api-key`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{"action":"generate"}',
  });
  const key = ((await res.json()) as { key: string }).key;
  const set = await fetch(`${owner!.url}/api/settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ values: { 'mcp.require_api_key': true } }),
  });
  assert.ok(set.ok, await set.text());
  try {
    await assert.rejects(httpClient(owner!.mcp!), /401|Unauthorized/);
    await searchFinds(await httpClient(owner!.mcp!, key));
    const { client, transport } = stdioClient();
    await client.connect(transport);
    await searchFinds(client);
  } finally {
    const off = await fetch(`${owner!.url}/api/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ values: { 'mcp.require_api_key': false } }),
    });
    assert.ok(off.ok);
  }
});

test('the bridge stops on stdin EOF and on SIGTERM, and leaves the engine serving', async () => {
  const serve = serveProc();
  await serve.waitFor(/Cairn engine serving/);
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  for (const how of ['eof', 'sigterm'] as const) {
    const bridge = start(process.execPath, [BIN, 'mcp', '--stdio'], { CAIRN_HOME: home }, { stdin: 'pipe' });
    bridge.child.stdin!.write(`${init}\n`);
    await bridge.waitFor(/"protocolVersion"/);
    if (how === 'eof') bridge.child.stdin!.end();
    else bridge.child.kill('SIGTERM');
    assert.equal(await bridge.exited, 0, `${how}: ${bridge.err()}`);
  }
  assert.equal((await readLock(dataPaths(home).lock))?.pid, serve.child.pid);
});

test('a client that writes its requests and closes stdin at once gets every answer, whether or not an engine is up yet', async () => {
  const lines = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'exponential backoff' } },
    },
    { jsonrpc: '2.0', id: 4, method: 'ping' },
  ].map((m) => JSON.stringify(m));
  for (const engineUp of [false, true]) {
    const serve = engineUp ? serveProc() : null;
    if (serve) await serve.waitFor(/Cairn engine serving/);
    else assert.equal(await readLock(dataPaths(home).lock), null, 'control: no engine runs before');
    const bridge = start(process.execPath, [BIN, 'mcp', '--stdio'], { CAIRN_HOME: home }, { stdin: 'pipe' });
    // The last line without its newline, as `printf` without a trailing \n writes it.
    bridge.child.stdin!.end(`${lines.join('\n')}`);
    assert.equal(await bridge.exited, 0, bridge.err());
    const answers = new Map(
      bridge
        .out()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { id: number; result?: Record<string, unknown> })
        .map((m) => [m.id, m]),
    );
    assert.deepEqual([...answers.keys()].sort(), [1, 2, 3, 4], `engine up: ${engineUp}\n${bridge.out()}`);
    const hits = (answers.get(3)!.result!.structuredContent as { result: { hits: { path: string }[] } }).result.hits;
    assert.ok(hits[0].path.endsWith('retry.md'), JSON.stringify(hits[0]));
    await stopEngine();
  }
});

test('a stdio client whose engine cannot start is told why in the answer (the engine log), not only "did not start"', async () => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const other = await indexedHome({ 'mcp.port': (taken.address() as AddressInfo).port });
  try {
    const bridge = start(process.execPath, [BIN, 'mcp', '--stdio'], { CAIRN_HOME: other.home }, { stdin: 'pipe' });
    bridge.child.stdin!.end(
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'backoff' } } },
      ]
        .map((m) => `${JSON.stringify(m)}\n`)
        .join(''),
    );
    assert.equal(await bridge.exited, 0, bridge.err());
    const answer = bridge
      .out()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id: number; result?: unknown; error?: { message: string } })
      .find((m) => m.id === 2);
    assert.equal(answer?.result, undefined, 'control: the engine really could not start');
    assert.match(answer?.error?.message ?? '', /did not start/);
    assert.match(answer?.error?.message ?? '', /EADDRINUSE/, 'the log line that says why');
  } finally {
    // The door starts an engine again as the bridge leaves (one a later client would find): the
    // port stays taken until every start has failed on it, or that engine would outlive the test.
    const log = join(other.home, 'logs', 'engine.log');
    const settled = async () => {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text.split('started by').length === text.split('EADDRINUSE').length;
    };
    for (let quiet = 0, i = 0; quiet < 20 && i < 600; i++) {
      quiet = (await settled()) && !(await readLock(dataPaths(other.home).lock)) ? quiet + 1 : 0;
      await sleep(100);
    }
    taken.close();
    await rm(other.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
});
