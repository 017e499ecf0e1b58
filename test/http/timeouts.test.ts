/**
 * Slow clients cannot hold the engine's sockets (issue 12 §8): a request whose body or headers
 * trickle in is answered 408 and its socket closed at the deadline, on every route; a normal
 * request meanwhile is answered; and an SSE stream that a complete request opened outlives the
 * deadline (the control: the timeouts cut slow requests, not long answers).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { FileApiKeyStore } from '../../main/engine/http/api-key-store.js';
import { startHttpServer, type HttpServerHandle } from '../../main/engine/http/server.js';
import { INIT, MCP_HEADERS } from '../mcp/fixtures.js';

const TIMEOUTS = { headersMs: 600, requestMs: 900, keepAliveMs: 600 };
let root: string;
let engine: Engine;
let server: HttpServerHandle;
let port: number;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-timeouts-'));
  engine = await openEngine({ home: join(root, 'home') });
  // Stateful with SSE answers, so that a GET opens a long-lived event stream (the control).
  engine.settings.set({ 'mcp.stateless_http': false, 'mcp.json_response': false });
  server = await startHttpServer(engine, {
    host: '127.0.0.1',
    port: 0,
    adminToken: 'a'.repeat(32),
    apiKeyStore: new FileApiKeyStore(join(root, 'home'), {}),
    stdioCommand: ['cairn', 'mcp', '--stdio'],
    clientsHome: root,
    timeouts: TIMEOUTS,
  });
  port = server.port;
});

after(async () => {
  await server.close();
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

interface Conn {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

function open(): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1');
    let data = '';
    let done = false;
    socket.on('data', (d: Buffer) => (data += d.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => ((done = true), r())));
    socket.once('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => data, closed, isClosed: () => done }));
    socket.once('error', reject);
  });
}

/** Sends one byte at a time, forever, until the server closes the socket. */
function trickle(c: Conn): void {
  const timer = setInterval(() => {
    if (!c.isClosed()) c.socket.write('a');
  }, 100);
  void c.closed.then(() => clearInterval(timer));
}

/** Resolves with the closed ones when every connection closed, or when `ms` passed (then the caller sees which stayed open). */
async function allClosed(conns: Conn[], ms: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(conns.map((c) => c.closed)), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
  return conns.filter((c) => c.isClosed()).length;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
}

test('100 slow-body connections to MCP, the admin API and the workbench get 408 and are closed; a normal request meanwhile is answered', async () => {
  const paths = ['/mcp', '/api/settings', '/'];
  const slow: Conn[] = [];
  for (let i = 0; i < 100; i++) {
    const c = await open();
    const path = paths[i % paths.length];
    c.socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    );
    trickle(c);
    slow.push(c);
  }
  // While they trickle: a normal client is served.
  const res = await post('/mcp', INIT);
  assert.equal(res.status, 200, 'a well-formed request is answered while slow bodies are pending');
  await res.body?.cancel();
  // Bounded wait (not a timing assertion): far past the deadline, every slow socket must be gone.
  const closed = await allClosed(slow, 15_000);
  assert.equal(closed, 100, `${100 - closed} slow-body connections were still open`);
  // A route may answer before reading the body (the admin API's 401); the 408 then follows it.
  for (const c of slow)
    assert.match(
      c.received(),
      /HTTP\/1\.1 408 Request Timeout\r\n/,
      `a slow body is answered 408, got ${JSON.stringify(c.received().slice(0, 60))}`,
    );
});

test('slow headers and a connection that never sends a byte are closed too', async () => {
  const headers = await open();
  headers.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
  const timer = setInterval(() => {
    if (!headers.isClosed()) headers.socket.write('X-Slow: 1\r\n');
  }, 100);
  const silent = await open();
  const closed = await allClosed([headers, silent], 15_000);
  clearInterval(timer);
  assert.equal(closed, 2, 'slow headers and a silent connection were closed');
  assert.match(headers.received(), /^HTTP\/1\.1 408 /);
});

test('an idle keep-alive connection is closed after its answer; a second request on it before then is answered (control)', async () => {
  const c = await open();
  const get = `GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`;
  c.socket.write(get);
  c.socket.write(get);
  assert.equal(await allClosed([c], 15_000), 1, 'the idle keep-alive connection was closed');
  assert.equal(c.received().match(/HTTP\/1\.1 401 /g)?.length, 2, 'both requests on the connection were answered');
});

test('control: an SSE stream opened by a complete request outlives the request deadline and ends only when its session does', async () => {
  const init = await post('/mcp', INIT);
  assert.equal(init.status, 200);
  const sid = init.headers.get('mcp-session-id');
  assert.ok(sid, 'stateful mode gave a session id');
  await init.body?.cancel();
  const initialized = await post(
    '/mcp',
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': sid, 'mcp-protocol-version': INIT.params.protocolVersion },
  );
  assert.equal(initialized.status, 202);

  const stream = await open();
  stream.socket.write(
    `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${sid}\r\nMcp-Protocol-Version: ${INIT.params.protocolVersion}\r\n\r\n`,
  );
  // Three times the request deadline and more than the keep-alive timeout.
  await sleep(TIMEOUTS.requestMs * 3);
  assert.equal(stream.isClosed(), false, 'the SSE stream is still open past the request deadline');
  assert.match(stream.received(), /^HTTP\/1\.1 200 /);
  assert.match(stream.received(), /content-type: text\/event-stream/i);
  // Ending the session ends the stream: it was a live stream, held open by the server.
  const del = await fetch(`${server.url}/mcp`, {
    method: 'DELETE',
    headers: { 'mcp-session-id': sid, 'mcp-protocol-version': INIT.params.protocolVersion },
  });
  assert.ok(del.status < 300, `DELETE answered ${del.status}`);
  await del.body?.cancel();
  stream.socket.end();
  assert.equal(await allClosed([stream], 15_000), 1);
});
