/** Response builders shared by the MCP route, the admin API and the static files. */
import type { ErrorBody, ErrorCode } from '../../common/errors.js';
import { httpStatusFor } from '../../common/errors.js';
import { toErrorBody } from '../errors.js';

/** Headers on every API answer: never cached, never sniffed, never framed. */
const API_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...API_HEADERS, ...headers },
  });
}

/** A JSON-RPC error body (id null: the request was refused before it was read as JSON-RPC). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: unknown,
): Response {
  return json(
    status,
    { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id: null },
    headers,
  );
}

export function errorResponse(err: unknown, status?: number): Response {
  const body: ErrorBody = toErrorBody(err);
  return json(status ?? httpStatusFor(body.code), { error: body });
}

export function typedError(
  code: ErrorCode,
  message: string,
  extra: Partial<ErrorBody> = {},
  headers: Record<string, string> = {},
): Response {
  return json(httpStatusFor(code), { error: { code, message, ...extra } }, headers);
}

/**
 * Reads a body up to `limit` bytes. Returns null when it is larger: the declared length is
 * checked first, then the bytes actually received (a lying or absent Content-Length).
 */
export async function readBounded(req: Request, limit: number): Promise<string | null> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `application/json` (with parameters), nothing else: `text/plain` is how cross-site forms post. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(';')[0].trim().toLowerCase();
  return type === 'application/json';
}
