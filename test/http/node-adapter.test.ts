/**
 * The node:http adapter over real sockets: small bodies are read in one go, large or chunked ones
 * still stream, JSON answers go out whole with their length, SSE still streams, and a client that
 * hangs up mid-body never reaches the handler.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { nodeListener } from '../../main/engine/http/node-adapter.js';

async function serve(handler: (req: Request) => Promise<Response>) {
  let origin = '';
  const server = createServer(nodeListener(handler, () => origin));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Echoes the body's length and digest-like summary as JSON. */
const echo = async (req: Request) => {
  const text = await req.text();
  return new Response(
    JSON.stringify({
      method: req.method,
      bytes: Buffer.byteLength(text),
      head: text.slice(0, 20),
      tail: text.slice(-20),
    }),
    { headers: { 'content-type': 'application/json' } },
  );
};

test('small and large bodies arrive intact; JSON answers carry their length', async () => {
  const s = await serve(echo);
  try {
    for (const size of [0, 300, 64 * 1024, 64 * 1024 + 1, 300_000]) {
      const body = 'a'.repeat(Math.max(0, size - 1)) + (size > 0 ? 'z' : '');
      const res = await fetch(s.origin + '/x', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const text = await res.text();
      assert.equal(
        res.headers.get('content-length'),
        String(Buffer.byteLength(text)),
        `length of the answer for ${size}`,
      );
      const got = JSON.parse(text) as { bytes: number; tail: string };
      assert.equal(got.bytes, size);
      if (size > 0) assert.ok(got.tail.endsWith('z'));
    }
  } finally {
    await s.close();
  }
});

test('a chunked body (no declared length) still streams to the handler', async () => {
  const s = await serve(echo);
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        s.origin + '/x',
        { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
        (res) => {
          let data = '';
          res.on('data', (c: Buffer) => (data += c.toString()));
          res.on('end', () => resolve(data));
        },
      );
      req.on('error', reject);
      req.write('x'.repeat(1000));
      req.end('y'.repeat(500));
    });
    assert.equal((JSON.parse(answer) as { bytes: number }).bytes, 1500);
  } finally {
    await s.close();
  }
});

test('an event stream is still streamed, event by event', async () => {
  const s = await serve(async () => {
    const enc = new TextEncoder();
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (n === 3) return c.close();
        c.enqueue(enc.encode(`data: ${n++}\n\n`));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  try {
    const res = await fetch(s.origin + '/sse');
    assert.equal(res.headers.get('content-length'), null);
    assert.equal(await res.text(), 'data: 0\n\ndata: 1\n\ndata: 2\n\n');
  } finally {
    await s.close();
  }
});

test('a client that hangs up mid-body never reaches the handler, and the server goes on serving', async () => {
  let calls = 0;
  const s = await serve(async (req) => {
    calls++;
    return echo(req);
  });
  try {
    await new Promise<void>((resolve) => {
      const sock = connect(s.port, '127.0.0.1', () => {
        sock.write(
          'POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n' +
            'a'.repeat(100),
        );
        setImmediate(() => sock.destroy());
      });
      sock.on('close', () => resolve());
    });
    const res = await fetch(s.origin + '/x', { method: 'POST', body: 'ok' });
    assert.equal(((await res.json()) as { bytes: number }).bytes, 2);
    assert.equal(calls, 1, 'only the complete request reached the handler');
  } finally {
    await s.close();
  }
});
