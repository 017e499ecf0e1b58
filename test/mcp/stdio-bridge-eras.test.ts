/**
 * The shipped stdio door (`cairn mcp --stdio`, a bridge to the engine's HTTP endpoint) in both
 * protocol eras, against a real engine that owns a real data folder:
 * - the handshake and tools/list are answered by the bridge itself while the engine is still
 *   starting (an engine lock held without an address stands for one), with real clients, and what
 *   the bridge says equals what the engine says (initialize for every served revision,
 *   server/discover and tools/list in both eras for both toolsets); once an engine is reached,
 *   tools/list is the engine's;
 * - every client kind (v2 pinned to 2026-07-28, v2 auto, v2 legacy, v1) launches the real
 *   bin/cairn.mjs and gets its era, the tools, a search hit, a read and the typed errors;
 * - the bridge itself (in-memory stdin/stdout) gives 2026-07-28 messages their standard headers
 *   from their own `_meta` (the endpoint refuses them otherwise, -32020) and keeps 2025 sessions.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { openEngine } from '../../main/engine/engine.js';
import { EngineLock, readLock } from '../../main/engine/lock.js';
import { dataPaths } from '../../main/engine/config/paths.js';
import { findOrStartEngine, type RunningEngine } from '../../main/engine/cli/engine-door.js';
import { StdioBridge } from '../../main/engine/mcp/stdio-bridge.js';
import { bodyHeaders } from '../../main/engine/mcp/stdio-bridge-wire.js';
import { listToolsBeforeEngine } from '../../main/engine/mcp/tools-before-engine.js';
import { SettingsStore } from '../../main/engine/config/settings-store.js';
import { defaultSettings } from '../../main/common/settings.js';
import {
  LEGACY_PROTOCOL_VERSIONS,
  TOOLS_CACHE_HINT,
  discoverResult,
  initializeResult,
  type Toolset,
} from '../../main/engine/mcp/server-identity.js';
import { CLIENT_KINDS, EXPECTED_ERA, connectEra, type StdioLaunch } from './era-clients.js';
import { FILES } from './fixtures.js';
import { REPO } from '../helpers/cli.js';

let root: string;
let home: string;
let launch: StdioLaunch;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-bridge-eras-'));
  home = join(root, 'home');
  const data = join(root, 'data');
  for (const [rel, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(data, rel)), { recursive: true });
    await writeFile(join(data, rel), text);
  }
  await writeFile(join(root, 'outside.txt'), 'outside secret\n');
  const engine = await openEngine({ home });
  engine.settings.set({ 'mcp.port': 0 });
  await engine.addFolder({ path: data });
  await engine.indexFolder(data, 'create');
  await engine.idle();
  await engine.close();
  launch = {
    command: process.execPath,
    args: [join(REPO, 'bin', 'cairn.mjs'), 'mcp', '--stdio'],
    env: { ...(process.env as Record<string, string>), CAIRN_HOME: home, LANCEDB_LOG: 'error' },
  };
});

after(async () => {
  const owner = await readLock(dataPaths(home).lock);
  if (owner) {
    process.kill(owner.pid, 'SIGTERM');
    for (let i = 0; i < 200 && (await readLock(dataPaths(home).lock)); i++) await sleep(100);
  }
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

/** A bridge on in-memory stdin/stdout; `ask` writes one message and waits for the answer with its id. */
function bridge(
  opts: {
    resolve?: () => Promise<{ url: string }>;
    toolset?: () => Promise<Toolset>;
    listTools?: (line: string, headers: Record<string, string>) => Promise<string | null>;
  } = {},
) {
  const input = new PassThrough();
  const output = new PassThrough();
  const b = new StdioBridge({
    input,
    output,
    resolve: opts.resolve ?? (async () => ({ url: (await findOrStartEngine(home)).mcp })),
    toolset: opts.toolset,
    listTools: opts.listTools,
  });
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
      await sleep(25);
    }
    throw new Error(`no answer to ${JSON.stringify(msg)}`);
  };
  return { ask, lines, raw: (text: string | Buffer) => input.write(text), stop: () => b.stop() };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bridge-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** tools/list as the shipped bridge answers it before the engine: from the data folder's settings. */
const listFromSettings = (line: string, headers: Record<string, string>) =>
  listToolsBeforeEngine(new SettingsStore(home), line, headers);
const initialize = (version: string, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'bridge-test', version: '1' } },
});

/** What the engine's own HTTP endpoint answers to one message. */
async function engineAnswer(engine: RunningEngine, msg: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(engine.mcp, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bodyHeaders(msg) },
    body: JSON.stringify(msg),
  });
  const text = await res.text();
  return JSON.parse(
    text.includes('data:')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5))
          .join('')
      : text,
  ) as Record<string, unknown>;
}

test('2026 requests carry their version, method and name as headers; 2025 ones carry none from the body', () => {
  const modern = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
  };
  assert.deepEqual(bodyHeaders(modern), {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'search',
  });
  assert.equal(
    bodyHeaders({ ...modern, params: { ...modern.params, name: 'zoë' } })['mcp-name'],
    `=?base64?${Buffer.from('zoë').toString('base64')}?=`,
  );
  assert.deepEqual(bodyHeaders({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }), {});
});

test("the declared revisions are the SDK's (an SDK upgrade that serves others fails here)", () => {
  assert.deepEqual([...LEGACY_PROTOCOL_VERSIONS], [...SUPPORTED_PROTOCOL_VERSIONS]);
});

for (const kind of ['v1', 'v2-pinned-2026'] as const) {
  test(`cairn mcp --stdio, ${kind}: the handshake and tools/list are answered while the engine is still starting; a queued tools/call once it listens`, async () => {
    assert.equal(await readLock(dataPaths(home).lock), null, 'no engine may run before this test');
    // An engine that has taken the data folder but does not listen yet: the bridge waits for it.
    const starting = await EngineLock.acquire(dataPaths(home).lock);
    let released = false;
    try {
      const client = await connectEra(kind, { stdio: launch });
      try {
        assert.equal(client.era, EXPECTED_ERA[kind]);
        assert.deepEqual(client.capabilities?.tools, { listChanged: false });
        if (kind === 'v2-pinned-2026') assert.deepEqual(client.discover?.supportedVersions, ['2026-07-28']);
        // Control: the handshake came from the bridge, for nothing listens and no other engine started.
        const lock = JSON.parse(await readFile(dataPaths(home).lock, 'utf8')) as { pid: number; url?: string };
        assert.equal(lock.pid, process.pid);
        assert.equal(lock.url, undefined);
        const listed = await client.listTools();
        assert.deepEqual(
          listed.map((t) => t.name),
          ['search', 'read'],
        );
        // Control: the list came from the bridge, for the folder is still held and nothing listens.
        const still = JSON.parse(await readFile(dataPaths(home).lock, 'utf8')) as { pid: number; url?: string };
        assert.deepEqual([still.pid, still.url], [process.pid, undefined]);
        const outside = client.callTool('read', { path: join(root, 'outside.txt') });
        await starting.release();
        released = true;
        const refused = await outside;
        assert.equal((refused.structuredContent as { error: { code: string } }).error.code, 'path_outside_folders');
        const owner = await readLock(dataPaths(home).lock);
        assert.ok(owner?.url && owner.pid !== process.pid, 'the bridge started the engine once the folder was free');
      } finally {
        await client.close();
      }
    } finally {
      if (!released) await starting.release();
      const owner = await readLock(dataPaths(home).lock);
      if (owner && owner.pid !== process.pid) {
        process.kill(owner.pid, 'SIGTERM');
        for (let i = 0; i < 200 && (await readLock(dataPaths(home).lock)); i++) await sleep(100);
      }
    }
  });
}

test('a stdio client that leaves right after its handshake still leaves an engine serving (as a health check like `claude mcp list` expects)', async () => {
  assert.equal(await readLock(dataPaths(home).lock), null, 'control: no engine runs before');
  const child = spawn(launch.command, launch.args, { env: launch.env, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin.write(`${JSON.stringify(initialize('2025-11-25'))}\n`);
  const first = await new Promise<string>((resolve) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) resolve(buf.slice(0, buf.indexOf('\n')));
    });
  });
  assert.equal((JSON.parse(first) as { result: { protocolVersion: string } }).result.protocolVersion, '2025-11-25');
  child.stdin.end();
  await exited;
  let owner = await readLock(dataPaths(home).lock);
  for (let i = 0; i < 1200 && !owner?.url; i++) {
    await sleep(100);
    owner = await readLock(dataPaths(home).lock);
  }
  assert.ok(owner?.url, 'an engine serves the folder after the client left');
});

test('what the bridge answers before the engine is what the engine answers: initialize in every revision, server/discover and tools/list (both eras) in both toolsets', async () => {
  const engine = await findOrStartEngine(home);
  const toolset = { current: 'agent' as Toolset };
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(engine.url + path, {
      method,
      headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // Resolves to nothing: every answer below must come from the bridge itself.
  const b = bridge({ resolve: () => new Promise(() => undefined), toolset: async () => toolset.current });
  try {
    let id = 0;
    for (const version of [...LEGACY_PROTOCOL_VERSIONS, '1999-01-01']) {
      const fresh = bridge({ resolve: () => new Promise(() => undefined), toolset: async () => 'agent' });
      try {
        const mine = await fresh.ask(initialize(version, ++id));
        assert.deepEqual(mine, await engineAnswer(engine, initialize(version, id)), version);
        assert.deepEqual(mine.result, initializeResult(version));
      } finally {
        await fresh.stop();
      }
    }
    const discover = (n: number) => ({ jsonrpc: '2.0', id: n, method: 'server/discover', params: { _meta: META } });
    assert.deepEqual(await b.ask(discover(++id)), await engineAnswer(engine, discover(id)));
    /** tools/list in both eras from a bridge that reaches no engine, each equal to the engine's answer. */
    const lists = async () => {
      const lb = bridge({
        resolve: () => new Promise(() => undefined),
        toolset: async () => toolset.current,
        listTools: listFromSettings,
      });
      try {
        assert.equal((await lb.ask(initialize('2025-11-25', ++id))).result!.protocolVersion, '2025-11-25');
        const legacy = { jsonrpc: '2.0', id: ++id, method: 'tools/list', params: {} };
        const legacyAnswer = await lb.ask(legacy);
        assert.deepEqual(legacyAnswer, await engineAnswer(engine, legacy), `2025 tools/list, ${toolset.current}`);
        const modern = { jsonrpc: '2.0', id: ++id, method: 'tools/list', params: { _meta: META } };
        const modernAnswer = await lb.ask(modern);
        assert.deepEqual(modernAnswer, await engineAnswer(engine, modern), `2026 tools/list, ${toolset.current}`);
        assert.equal(modernAnswer.result!.ttlMs, TOOLS_CACHE_HINT.ttlMs);
        const names = (a: { result?: Record<string, unknown> }) =>
          (a.result!.tools as { name: string }[]).map((t) => t.name);
        assert.deepEqual(names(legacyAnswer), names(modernAnswer));
        return { names: names(modernAnswer), search: JSON.stringify(modernAnswer.result!.tools) };
      } finally {
        await lb.stop();
      }
    };
    const agentLists = await lists();
    assert.deepEqual(agentLists.names, ['search', 'read']);
    // The full toolset advertises the Tasks extension to 2026 clients: remount the engine with it.
    // A search default changes too: the list before the engine follows the data folder's settings.
    assert.equal(
      (await admin('PATCH', '/api/settings', { values: { 'mcp.toolset': 'full', 'mcp.default_top_k': 7 } })).status,
      200,
    );
    assert.equal((await admin('POST', '/api/mcp/restart')).status, 200);
    toolset.current = 'full';
    const fullLists = await lists();
    assert.ok(fullLists.names.includes('grep') && fullLists.names.includes('index_update'), fullLists.names.join());
    assert.match(fullLists.search, /top_k 7/);
    assert.doesNotMatch(agentLists.search, /top_k 7/, 'control: the agent list was taken with the other default');
    const full = await engineAnswer(engine, discover(++id));
    assert.ok(
      (full.result as { capabilities: { extensions?: unknown } }).capabilities.extensions,
      "control: the full toolset's discover differs from the agent one",
    );
    assert.deepEqual(await b.ask(discover(id)), full);
    assert.deepEqual(full.result, discoverResult('full'));
  } finally {
    await b.stop();
    await admin('PATCH', '/api/settings', {
      values: { 'mcp.toolset': 'agent', 'mcp.default_top_k': defaultSettings()['mcp.default_top_k'] },
    });
    await admin('POST', '/api/mcp/restart');
  }
});

test('a malformed initialize or a discover for an unknown revision is not answered by the bridge but by the engine, which says what is wrong', async () => {
  const b = bridge({ toolset: async () => 'agent' });
  try {
    const bad = await b.ask({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 7 } });
    assert.ok(bad.error, JSON.stringify(bad));
    const future = await b.ask({
      jsonrpc: '2.0',
      id: 2,
      method: 'server/discover',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    });
    assert.equal(future.error?.code, -32022);
  } finally {
    await b.stop();
  }
});

for (const kind of CLIENT_KINDS) {
  test(`cairn mcp --stdio, ${kind}: ${EXPECTED_ERA[kind]} era through the bridge, tools, search, read, typed errors`, async () => {
    const client = await connectEra(kind, { stdio: launch });
    try {
      assert.equal(client.era, EXPECTED_ERA[kind]);
      assert.deepEqual(
        (await client.listTools()).map((t) => t.name),
        ['search', 'read'],
      );
      const res = await client.callTool('search', { query: 'exponential backoff' });
      const hits = (res.structuredContent as { result: { hits: { path: string }[] } }).result.hits;
      assert.ok(hits[0].path.endsWith('retry.md'));
      const read = await client.callTool('read', { path: hits[0].path });
      assert.match(JSON.stringify(read.structuredContent), /five attempts/);
      const outside = await client.callTool('read', { path: join(root, 'outside.txt') });
      assert.equal((outside.structuredContent as { error: { code: string } }).error.code, 'path_outside_folders');
      assert.ok(!JSON.stringify(outside).includes('outside secret'));
      const bad = await client.callTool('search', { query: 'x', top_k: 0 });
      assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'invalid_argument');
    } finally {
      await client.close();
    }
  });
}

test("2026-07-28 over the bridge, forwarded: server/discover, tools/list (the engine's, once it is reached) and a search are served", async () => {
  let listedHere = 0;
  const b = bridge({
    listTools: (line, headers) => {
      listedHere++;
      return listFromSettings(line, headers);
    },
  });
  try {
    const discover = await b.ask({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    assert.equal(discover.error, undefined, JSON.stringify(discover.error));
    assert.deepEqual(discover.result!.supportedVersions, ['2026-07-28']);
    const list = await b.ask({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
    assert.deepEqual(
      (list.result!.tools as { name: string }[]).map((t) => t.name),
      ['search', 'read'],
    );
    // The discover above reached the engine (this bridge answers no discover itself): the list is the engine's.
    assert.equal(listedHere, 0);
    const early = bridge({
      resolve: () => new Promise(() => undefined),
      listTools: (line, headers) => {
        listedHere++;
        return listFromSettings(line, headers);
      },
    });
    try {
      await early.ask({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: META } });
      assert.equal(listedHere, 1, 'control: a bridge that reached no engine answers the list itself');
    } finally {
      await early.stop();
    }
    const call = await b.ask({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'exponential backoff', top_k: 1 }, _meta: META },
    });
    const hits = (call.result!.structuredContent as { result: { hits: { path: string }[] } }).result.hits;
    assert.ok(hits[0].path.endsWith('retry.md'));
  } finally {
    await b.stop();
  }
});

test('2025-era over the same bridge (initialize answered by the bridge, replayed to the engine) calls tools; a bad 2026 envelope is refused, not served as 2025', async () => {
  const b = bridge({ toolset: async () => 'agent' });
  try {
    const init = await b.ask(initialize('2025-11-25'));
    assert.equal(init.result!.protocolVersion, '2025-11-25');
    const call = await b.ask({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'lighthouse budget', top_k: 1 } },
    });
    assert.ok(
      (call.result!.structuredContent as { result: { hits: { path: string }[] } }).result.hits[0].path.endsWith(
        'budget.md',
      ),
    );
    const future = await b.ask({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/list',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    });
    assert.equal(future.error?.code, -32022);
  } finally {
    await b.stop();
  }
});

test('hostile lines on stdin each get a JSON-RPC error that says what is wrong, and the bridge keeps serving', async () => {
  const b = bridge({ toolset: async () => 'agent' });
  try {
    assert.equal((await b.ask(initialize('2025-11-25'))).result!.protocolVersion, '2025-11-25');
    b.raw('not json\n');
    b.raw(Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x0a]));
    b.raw(`${JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'ping' }])}\n`);
    b.raw(`${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'no/such/method' })}\n`);
    // The control: a request after them is served as if they had not been sent.
    const call = await b.ask({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'lighthouse budget', top_k: 1 } },
    });
    assert.ok(
      (call.result!.structuredContent as { result: { hits: { path: string }[] } }).result.hits[0].path.endsWith(
        'budget.md',
      ),
    );
    // The forwarded ones are answered by the engine, in any order beside the call: waited for (bounded).
    const errorLines = () => b.lines.filter((l) => l.error);
    for (let i = 0; i < 400 && errorLines().length < 4; i++) await sleep(25);
    const errors = errorLines().map((l) => ({ id: l.id, ...(l.error as { code: number; message: string }) }));
    const parse = errors.filter((e) => e.code === -32700);
    assert.equal(parse.length, 2, JSON.stringify(errors));
    for (const e of parse) assert.equal(e.id, null);
    const batch = errors.find((e) => e.code === -32600);
    assert.ok(batch, JSON.stringify(errors));
    assert.match(batch.message, /batch/);
    // Said for stdio as for HTTP: no transport's words (a stdio client sends no POST).
    assert.doesNotMatch(batch.message, /POST/);
    assert.equal(errors.find((e) => e.id === 8)?.code, -32601);
  } finally {
    await b.stop();
  }
});

test("with stateful sessions the replayed initialize opens the session the client's later calls use (a call without one is refused)", async () => {
  const engine = await findOrStartEngine(home);
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(engine.url + path, {
      method,
      headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  assert.equal((await admin('PATCH', '/api/settings', { values: { 'mcp.stateless_http': false } })).status, 200);
  assert.equal((await admin('POST', '/api/mcp/restart')).status, 200);
  const b = bridge({ toolset: async () => 'agent' });
  try {
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'lighthouse budget', top_k: 1 } },
    };
    const refused = await fetch(engine.mcp, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(call),
    });
    assert.equal(refused.status >= 400, true, 'control: a stateful engine refuses a call outside a session');
    await refused.body?.cancel();
    assert.equal((await b.ask(initialize('2025-11-25'))).result!.protocolVersion, '2025-11-25');
    const answer = await b.ask(call);
    assert.ok(
      (answer.result!.structuredContent as { result: { hits: { path: string }[] } }).result.hits[0].path.endsWith(
        'budget.md',
      ),
      JSON.stringify(answer),
    );
  } finally {
    await b.stop();
    await admin('PATCH', '/api/settings', { values: { 'mcp.stateless_http': true } });
    await admin('POST', '/api/mcp/restart');
  }
});
