/**
 * The bridge's reading of the wire (stdio-bridge.ts): which lines are requests, the headers a
 * 2026-07-28 request carries on HTTP, which handshakes the bridge may answer itself, JSON-RPC
 * errors and SSE events. Pure functions of a message, so the bridge class holds only its state.
 */
import { MODERN_PROTOCOL_VERSIONS } from './server-identity.js';

export type Json = Record<string, unknown>;
export type Id = string | number | null;

export function isRequest(m: Json): boolean {
  return typeof m.method === 'string' && m.id !== undefined && m.id !== null;
}

/** The 2026-07-28 wire: a request's version claim travels in `_meta`, and HTTP repeats it (and the method and name) in headers. */
export const VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
const NAME_SOURCE: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** Header values must be printable ASCII without edge spaces; anything else goes base64 in the spec's sentinel. */
function headerValue(s: string): string {
  const plain =
    s.length > 0 && s === s.trim() && /^[\t\x20-\x7e]*$/.test(s) && !(s.startsWith('=?base64?') && s.endsWith('?='));
  return plain ? s : `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
}

/** Headers a modern (2026) request carries on HTTP, derived from its body as the SDK's HTTP client does. */
export function bodyHeaders(msg: Json): Record<string, string> {
  const params =
    msg.params && typeof msg.params === 'object' && !Array.isArray(msg.params) ? (msg.params as Json) : null;
  const meta = params?._meta && typeof params._meta === 'object' ? (params._meta as Json) : null;
  const version = meta?.[VERSION_META_KEY];
  if (typeof version !== 'string' || typeof msg.method !== 'string' || msg.id === undefined) return {};
  const h: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': msg.method };
  const field = NAME_SOURCE[msg.method];
  const name = field ? params?.[field] : undefined;
  if (typeof name === 'string') h['mcp-name'] = headerValue(name);
  return h;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An `initialize` the SDK would accept as is (anything else goes to the engine, which says what is wrong). */
export function wellFormedInitialize(msg: Json): string | null {
  const p = msg.params;
  if (
    msg.method !== 'initialize' ||
    !isRequest(msg) ||
    !isObject(p) ||
    typeof p.protocolVersion !== 'string' ||
    !isObject(p.capabilities)
  )
    return null;
  const info = p.clientInfo;
  return isObject(info) && typeof info.name === 'string' && typeof info.version === 'string' ? p.protocolVersion : null;
}

/** A `server/discover` naming a served 2026 revision, with the envelope's client info and capabilities. */
export function wellFormedDiscover(msg: Json): boolean {
  const meta = isObject(msg.params) ? msg.params._meta : undefined;
  if (msg.method !== 'server/discover' || !isRequest(msg) || !isObject(meta)) return false;
  const version = meta[VERSION_META_KEY];
  const info = meta['io.modelcontextprotocol/clientInfo'];
  return (
    typeof version === 'string' &&
    (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version) &&
    isObject(info) &&
    typeof info.name === 'string' &&
    typeof info.version === 'string' &&
    isObject(meta['io.modelcontextprotocol/clientCapabilities'])
  );
}

export function rpcError(id: Id, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

/** Splits an SSE body into the data of each event. */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buf = '';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, '');
      buf = buf.slice(nl + 1);
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
  }
  if (data.length > 0) yield data.join('\n');
}
