/**
 * `cairn mcp --stdio` as a bridge: newline-delimited JSON-RPC on stdin/stdout (the MCP stdio
 * framing) carried to the one engine's Streamable HTTP endpoint, so a stdio client and every
 * HTTP client share one engine and one index. Kept at the byte/JSON-RPC level on purpose: it
 * does not parse MCP beyond the ids it must match and the headers the HTTP transport carries
 * (MCP-Protocol-Version and Mcp-Session-Id from a 2025-era initialize; for 2026-07-28 requests
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name derived from the body, as the spec defines),
 * so it follows whichever SDK serves the endpoint, in either era.
 *
 * Messages read before the engine answers are queued (the target resolves once); each request
 * is then posted as it arrives, concurrently, and every answer (JSON, or each SSE event) is
 * written as one line. When the engine goes away mid-session the target is resolved again once
 * (a new engine may have taken over). stdin EOF or stop() ends the bridge at once: in-flight
 * requests are aborted, and a stateful session is deleted on the way out.
 */
import type { Readable, Writable } from 'node:stream';

export interface BridgeTarget {
  /** The MCP endpoint, e.g. http://127.0.0.1:58012/mcp. */
  url: string;
  /** The API key to send, when known (a 401 asks `key()` again). */
  key?: string | null;
}

export interface BridgeOptions {
  input: Readable;
  output: Writable;
  /** Finds (or starts) the engine; called again after the engine stopped answering. */
  resolve: (previous: BridgeTarget | null) => Promise<BridgeTarget>;
  /** The key, fetched when the endpoint answers 401 (null: none to be had). */
  key?: (target: BridgeTarget) => Promise<string | null>;
  log?: (line: string) => void;
}

type Json = Record<string, unknown>;
type Id = string | number | null;

function isRequest(m: Json): boolean {
  return typeof m.method === 'string' && m.id !== undefined && m.id !== null;
}

/** The 2026-07-28 wire: a request's version claim travels in `_meta`, and HTTP repeats it (and the method and name) in headers. */
const VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
const NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

/** Header values must be printable ASCII without edge spaces; anything else goes base64 in the spec's sentinel. */
function headerValue(s: string): string {
  const plain = s.length > 0 && s === s.trim() && /^[\t\x20-\x7e]*$/.test(s) && !(s.startsWith('=?base64?') && s.endsWith('?='));
  return plain ? s : `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
}

/** Headers a modern (2026) request carries on HTTP, derived from its body as the SDK's HTTP client does. */
export function bodyHeaders(msg: Json): Record<string, string> {
  const params = msg.params && typeof msg.params === 'object' && !Array.isArray(msg.params) ? (msg.params as Json) : null;
  const meta = params?._meta && typeof params._meta === 'object' ? (params._meta as Json) : null;
  const version = meta?.[VERSION_META_KEY];
  if (typeof version !== 'string' || typeof msg.method !== 'string' || msg.id === undefined) return {};
  const h: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': msg.method };
  const field = NAME_SOURCE[msg.method];
  const name = field ? params?.[field] : undefined;
  if (typeof name === 'string') h['mcp-name'] = headerValue(name);
  return h;
}

function rpcError(id: Id, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

/** The params key each 2026-07-28 method names in its `Mcp-Name` header. */
const NAME_PARAM: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * A 2026-07-28 message (its `_meta` names the revision) needs the standard headers over HTTP, taken
 * from the message itself: `MCP-Protocol-Version`, `Mcp-Method` and, where the method has one,
 * `Mcp-Name`. Without them the endpoint refuses it (-32020) rather than guess; a 2025-era message
 * keeps the negotiated version header.
 */
function modernHeaders(msg: Json): Record<string, string> | null {
  const params = msg.params as Json | undefined;
  const version = (params?._meta as Json | undefined)?.['io.modelcontextprotocol/protocolVersion'];
  if (typeof version !== 'string' || typeof msg.method !== 'string') return null;
  const h: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': msg.method };
  const key = NAME_PARAM[msg.method];
  const name = key ? params?.[key] : undefined;
  // Only what a header can carry as is; anything else is left out and the endpoint says why.
  if (typeof name === 'string' && /^[\x20-\x7e]{1,1000}$/.test(name)) h['mcp-name'] = name;
  return h;
}

/** Splits an SSE body into the data of each event. */
async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
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

export class StdioBridge {
  private target: Promise<BridgeTarget> | null = null;
  private current: BridgeTarget | null = null;
  private protocolVersion: string | null = null;
  private sessionId: string | null = null;
  private readonly inflight = new Set<AbortController>();
  private stopped = false;
  private buffer = '';
  private done!: () => void;
  /** Resolves when the bridge has stopped (stdin closed or stop()). */
  readonly finished = new Promise<void>((r) => (this.done = r));

  constructor(private readonly o: BridgeOptions) {}

  start(): void {
    this.o.input.setEncoding('utf8');
    this.o.input.on('data', (chunk: string) => this.onData(chunk));
    this.o.input.once('end', () => void this.stop());
    this.o.input.once('error', () => void this.stop());
    // Start finding the engine at once: by the client's first message it may be up.
    void this.resolveTarget().catch(() => undefined);
  }

  private log(line: string): void {
    this.o.log?.(line);
  }

  private resolveTarget(): Promise<BridgeTarget> {
    if (!this.target) {
      const previous = this.current;
      this.target = this.o.resolve(previous).then(
        (t) => (this.current = t),
        (err: unknown) => {
          this.target = null;
          throw err;
        },
      );
    }
    return this.target;
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      if (line.trim() !== '') void this.forward(line);
    }
  }

  private write(text: string): void {
    if (this.stopped) return;
    this.o.output.write(`${text}\n`);
  }

  /** One answer from the endpoint, normalised to one line; an error without an id gets the request's. */
  private emit(text: string, requestId: Id): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.log(`engine sent a line that is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    const list = Array.isArray(msg) ? msg : [msg];
    for (const m of list as Json[]) {
      if (m && typeof m === 'object' && 'error' in m && (m.id === null || m.id === undefined) && requestId !== null) m.id = requestId;
      const result = m?.result as Json | undefined;
      if (result && typeof result.protocolVersion === 'string' && m.id === requestId) this.protocolVersion = result.protocolVersion;
      this.write(JSON.stringify(m));
    }
  }

  private headers(target: BridgeTarget, msg?: Json): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const modern = msg ? modernHeaders(msg) : null;
    if (modern) Object.assign(h, modern);
    else if (this.protocolVersion) h['mcp-protocol-version'] = this.protocolVersion;
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    if (target.key) h.authorization = `Bearer ${target.key}`;
    return msg ? { ...h, ...bodyHeaders(msg) } : h;
  }

  private async forward(line: string): Promise<void> {
    let msg: Json;
    try {
      msg = JSON.parse(line) as Json;
    } catch {
      this.write(rpcError(null, -32700, 'Parse error: each line on stdin must be one JSON-RPC message.'));
      return;
    }
    const id: Id = isRequest(msg) ? (msg.id as Id) : null;
    const method = typeof msg.method === 'string' ? msg.method : null;
    let target: BridgeTarget;
    try {
      target = await this.resolveTarget();
    } catch (err) {
      if (id !== null) this.write(rpcError(id, -32603, `Cairn's engine is not available: ${(err as Error).message}`));
      else this.log(`dropped a message: the engine is not available (${(err as Error).message})`);
      return;
    }
    for (let attempt = 0; attempt < 3 && !this.stopped; attempt++) {
      const ctl = new AbortController();
      this.inflight.add(ctl);
      try {
        const res = await fetch(target.url, { method: 'POST', headers: this.headers(target, msg), body: line, signal: ctl.signal });
        if (res.status === 401 && attempt === 0 && this.o.key) {
          const text = await res.text();
          const key = await this.o.key(target).catch(() => null);
          if (key && key !== target.key) {
            target.key = key;
            continue;
          }
          return this.answerText(res.status, res.headers.get('content-type') ?? '', text, id);
        }
        const session = res.headers.get('mcp-session-id');
        if (session && method === 'initialize') this.sessionId = session;
        if (res.status === 202 || res.status === 204) {
          await res.body?.cancel();
          return;
        }
        return await this.answer(res, id);
      } catch (err) {
        if (this.stopped || (err as Error).name === 'AbortError') return;
        // The engine stopped answering: find it again (it may have restarted, or another took over).
        this.log(`engine at ${target.url} does not answer (${(err as Error).message}); looking for it again`);
        if (this.target && this.current === target) this.target = null;
        try {
          target = await this.resolveTarget();
        } catch (again) {
          if (id !== null) this.write(rpcError(id, -32603, `Cairn's engine is not available: ${(again as Error).message}`));
          return;
        }
      } finally {
        this.inflight.delete(ctl);
      }
    }
  }

  private async answer(res: Response, id: Id): Promise<void> {
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream') && res.body) {
      for await (const data of sseData(res.body)) if (data.trim() !== '') this.emit(data, id);
      return;
    }
    this.answerText(res.status, type, await res.text(), id);
  }

  private answerText(status: number, type: string, text: string, id: Id): void {
    if (type.includes('application/json') && text.trim() !== '') {
      this.emit(text, id);
      return;
    }
    if (id !== null) this.write(rpcError(id, -32603, `Cairn's engine answered HTTP ${status}${text ? `: ${text.slice(0, 300)}` : ''}`));
  }

  /** Ends the bridge: aborts what is in flight and ends a stateful session (best effort, briefly). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const c of this.inflight) c.abort();
    if (this.sessionId && this.current) {
      const ctl = new AbortController();
      const t = setTimeout(() => ctl.abort(), 500);
      await fetch(this.current.url, { method: 'DELETE', headers: this.headers(this.current), signal: ctl.signal }).then((r) => r.body?.cancel(), () => undefined);
      clearTimeout(t);
    }
    this.done();
  }
}
