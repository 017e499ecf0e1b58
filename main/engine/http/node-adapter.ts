/** node:http ⇄ web-standard Request/Response, streaming both ways (SSE needs it). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HttpHandler } from './handler.js';
import { setRemoteAddress } from '../web/peer.js';

/**
 * A body declared at most this long is read here in one go instead of through a web stream: a
 * JSON-RPC call is a few hundred bytes, and each stream layer costs turns of the event loop on
 * every request. Longer or undeclared bodies still stream, so the routes' own limits apply.
 */
const BUFFERED_BODY_BYTES = 64 * 1024;

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

/**
 * The URL is built on the listening address, not on the Host header: a forged Host must reach
 * the Host check as a header, not break URL parsing or redirect anything.
 */
export async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  // Pairs, not a Headers object: the Request validates and copies them either way, once this way.
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.push([name, v]);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const url = new URL(req.url ?? '/', origin);
  const declared = Number(req.headers['content-length']);
  if (hasBody && Number.isInteger(declared) && declared <= BUFFERED_BODY_BYTES && !req.headers['transfer-encoding']) {
    // No abort signal here: the body is complete (a hang-up while reading it rejects above) and no
    // handler watches for a client leaving mid-answer; wiring one costs ~50 µs per request.
    return new Request(url, { method, headers, body: await readAll(req) });
  }
  const controller = new AbortController();
  req.once('close', () => {
    if (!req.complete) controller.abort();
  });
  return new Request(url, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal: controller.signal,
    // Required by undici for a streamed request body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

function isEventStream(res: Response): boolean {
  return res.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream') ?? false;
}

/** The whole body; a reader loop costs less than arrayBuffer() on a one-chunk body (no copy either). */
async function bodyBytes(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return parts.length === 1
    ? Buffer.from(parts[0].buffer, parts[0].byteOffset, parts[0].byteLength)
    : Buffer.concat(parts);
}

export async function writeResponse(res: Response, out: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  res.headers.forEach((value, name) => {
    headers[name] = name === 'set-cookie' ? res.headers.getSetCookie() : value;
  });
  if (!res.body) {
    out.writeHead(res.status, headers);
    out.end();
    return;
  }
  if (res.headers.get('content-type')?.toLowerCase().startsWith('application/json')) {
    // A JSON answer is complete in memory: one write with its length, not a chunked stream.
    const body = await bodyBytes(res.body);
    headers['content-length'] = String(body.byteLength);
    out.writeHead(res.status, headers);
    out.end(body);
    return;
  }
  out.writeHead(res.status, headers);
  // An SSE stream may stay silent for a while; the client must see the headers now.
  if (isEventStream(res)) out.flushHeaders();
  const reader = res.body.getReader();
  // A client that hangs up (e.g. closes an SSE stream) cancels the body, which lets the MCP
  // transport release the stream.
  out.once('close', () => {
    void reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!out.write(value)) await new Promise<void>((r) => out.once('drain', r));
      // Flush SSE events as they come instead of waiting for Nagle or a full buffer.
      (out as unknown as { flush?: () => void }).flush?.();
    }
  } catch {
    // The client went away mid-stream; nothing left to tell it.
  } finally {
    out.end();
  }
}

export function nodeListener(handler: HttpHandler, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      let request: Request;
      try {
        request = await toRequest(req, origin());
        setRemoteAddress(request, req.socket.remoteAddress);
      } catch {
        if (!res.headersSent && !res.destroyed) res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
        return;
      }
      await writeResponse(await handler(request), res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  };
}
