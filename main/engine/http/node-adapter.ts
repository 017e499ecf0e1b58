/** node:http ⇄ web-standard Request/Response, streaming both ways (SSE needs it). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HttpHandler } from './handler.js';

/**
 * The URL is built on the listening address, not on the Host header: a forged Host must reach
 * the Host check as a header, not break URL parsing or redirect anything.
 */
export function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const controller = new AbortController();
  req.once('close', () => {
    if (!req.complete) controller.abort();
  });
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal: controller.signal,
    // Required by undici for a streamed request body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

export async function writeResponse(res: Response, out: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  res.headers.forEach((value, name) => {
    headers[name] = name === 'set-cookie' ? res.headers.getSetCookie() : value;
  });
  out.writeHead(res.status, headers);
  if (!res.body) {
    out.end();
    return;
  }
  // An SSE stream may stay silent for a while; the client must see the headers now.
  out.flushHeaders();
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
        request = toRequest(req, origin());
      } catch {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
        return;
      }
      await writeResponse(await handler(request), res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  };
}
