/**
 * `cairn mcp --stdio` as a bridge: newline-delimited JSON-RPC on stdin/stdout (the MCP stdio
 * framing) carried to the one engine's Streamable HTTP endpoint, so a stdio client and every
 * HTTP client share one engine and one index. Kept at the byte/JSON-RPC level on purpose: it
 * does not parse MCP beyond the ids it must match and the headers the HTTP transport carries
 * (MCP-Protocol-Version and Mcp-Session-Id from a 2025-era initialize; for 2026-07-28 requests
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name derived from the body, as the spec defines),
 * so it follows whichever SDK serves the endpoint, in either era.
 *
 * `initialize` and `server/discover` are answered by the bridge itself from the declared identity
 * (server-identity.ts), at once, so a client's handshake never waits for the engine to start;
 * the client's `initialize` is replayed to the engine once it is found. Until an engine has been
 * reached, `tools/list` is answered here too, by the MCP server the engine would mount, built
 * from the same declarations (tools-before-engine.ts); once one is reached it is forwarded. Other messages read
 * before the engine answers are queued (the target resolves once); each request is then posted
 * as it arrives, concurrently, and every answer (JSON, or each SSE event) is written as one line. When the engine goes away mid-session the target is resolved again once
 * (a new engine may have taken over). stdin EOF ends the bridge once every message read has been
 * answered (a client that writes its requests and closes stdin, as a script piping into the
 * command does, still gets every answer, as from the SDK's own stdio servers); stop() (a signal)
 * ends it at once, aborting what is in flight. A stateful session is deleted on the way out.
 */
import type { Readable, Writable } from 'node:stream';
import { discoverResult, initializeResult, type Toolset } from './server-identity.js';
import {
  bodyHeaders,
  isRequest,
  rpcError,
  sseData,
  wellFormedDiscover,
  wellFormedInitialize,
  type Id,
  type Json,
} from './stdio-bridge-wire.js';

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
  /**
   * The toolset the engine mounts (its settings): with it the bridge answers `initialize` and
   * `server/discover` itself from the declared identity at once, before the engine listens, and
   * replays the client's `initialize` to the engine when it is found (a stateful session needs
   * it). Without it both are forwarded like any other message.
   */
  toolset?: () => Promise<Toolset>;
  /**
   * The engine's own answer to a `tools/list` (the line as sent, with the headers the bridge
   * would post it with), built without the engine (tools-before-engine.ts); asked only while no
   * engine has been reached yet. Null, or a throw: the list is forwarded like any other message.
   */
  listTools?: (line: string, headers: Record<string, string>) => Promise<string | null>;
}

export class StdioBridge {
  private target: Promise<BridgeTarget> | null = null;
  private current: BridgeTarget | null = null;
  private protocolVersion: string | null = null;
  private sessionId: string | null = null;
  /** The client's `initialize`, answered here; replayed to each engine the bridge reaches. */
  private initializeLine: string | null = null;
  /** The replay of that initialize, once per engine reached (a new engine gets its own). */
  private readonly handshakes = new WeakMap<BridgeTarget, Promise<void>>();
  private readonly inflight = new Set<AbortController>();
  /** Each message read and not yet answered: what stdin EOF waits for. */
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;
  private buffer = '';
  private done!: () => void;
  /** Resolves when the bridge has stopped (stdin closed or stop()). */
  readonly finished = new Promise<void>((r) => (this.done = r));

  constructor(private readonly o: BridgeOptions) {}

  start(): void {
    this.o.input.setEncoding('utf8');
    this.o.input.on('data', (chunk: string) => this.onData(chunk));
    this.o.input.once('end', () => void this.drain());
    this.o.input.once('error', () => void this.stop());
    // A client gone from the other end (EPIPE): nobody is left to answer.
    this.o.output.once('error', () => void this.stop());
    // Start finding the engine at once: by the client's first message it may be up.
    void this.resolveTarget().catch(() => undefined);
  }

  private log(line: string): void {
    this.o.log?.(line);
  }

  /** The engine to post to, with the client's initialize replayed to it first when the bridge answered one. */
  private async readyTarget(): Promise<BridgeTarget> {
    const target = await this.resolveTarget();
    const line = this.initializeLine;
    if (!line) return target;
    let done = this.handshakes.get(target);
    if (!done) {
      done = this.handshake(target, line);
      this.handshakes.set(target, done);
      done.catch(() => this.handshakes.delete(target));
    }
    await done;
    return target;
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
      this.take(line);
    }
  }

  private take(line: string): void {
    if (line.trim() === '') return;
    const answered = this.forward(line)
      .catch((err: unknown) => this.log(`a message was not answered: ${(err as Error).message}`))
      .finally(() => this.pending.delete(answered));
    this.pending.add(answered);
  }

  /** stdin ended: answer what was read (a last line without its newline too), then stop. */
  private async drain(): Promise<void> {
    this.take(this.buffer.replace(/\r$/, ''));
    this.buffer = '';
    while (this.pending.size > 0 && !this.stopped) await Promise.allSettled([...this.pending]);
    await this.stop();
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
      if (m && typeof m === 'object' && 'error' in m && (m.id === null || m.id === undefined) && requestId !== null)
        m.id = requestId;
      const result = m?.result as Json | undefined;
      if (result && typeof result.protocolVersion === 'string' && m.id === requestId)
        this.protocolVersion = result.protocolVersion;
      this.write(JSON.stringify(m));
    }
  }

  private headers(target: BridgeTarget, msg?: Json): Record<string, string> {
    const h: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    // A 2026-07-28 message names its own revision (bodyHeaders, stdio-bridge-wire.ts); a 2025-era one the negotiated one.
    if (this.protocolVersion) h['mcp-protocol-version'] = this.protocolVersion;
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
    if (this.o.toolset && (await this.answerLocally(msg, line))) return;
    if (method === 'tools/list' && id !== null && (await this.listLocally(msg, line, id))) return;
    let target: BridgeTarget;
    try {
      target = await this.readyTarget();
    } catch (err) {
      if (id !== null) this.write(rpcError(id, -32603, unavailable(err)));
      else this.log(`dropped a message: the engine is not available (${(err as Error).message})`);
      return;
    }
    for (let attempt = 0; attempt < 3 && !this.stopped; attempt++) {
      const ctl = new AbortController();
      this.inflight.add(ctl);
      try {
        const res = await fetch(target.url, {
          method: 'POST',
          headers: this.headers(target, msg),
          body: line,
          signal: ctl.signal,
        });
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
          target = await this.readyTarget();
        } catch (again) {
          if (id !== null) this.write(rpcError(id, -32603, unavailable(again)));
          return;
        }
      } finally {
        this.inflight.delete(ctl);
      }
    }
  }

  /** `initialize` and `server/discover` answered from the declared identity; true when answered. */
  private async answerLocally(msg: Json, line: string): Promise<boolean> {
    const version = wellFormedInitialize(msg);
    if (version !== null && !this.initializeLine) {
      const result = initializeResult(version);
      this.initializeLine = line;
      this.protocolVersion = result.protocolVersion as string;
      this.write(JSON.stringify({ result, jsonrpc: '2.0', id: msg.id }));
      return true;
    }
    if (wellFormedDiscover(msg)) {
      const toolset = await this.o.toolset!().catch(() => null);
      if (!toolset) return false;
      this.write(JSON.stringify({ result: discoverResult(toolset), jsonrpc: '2.0', id: msg.id }));
      return true;
    }
    return false;
  }

  /** A `tools/list` answered without the engine while none has been reached; true when answered. */
  private async listLocally(msg: Json, line: string, id: Id): Promise<boolean> {
    if (!this.o.listTools || this.current) return false;
    const answer = await this.o.listTools(line, this.headers({ url: '' }, msg)).catch((err: unknown) => {
      this.log(`tools/list could not be answered before the engine (${(err as Error).message}); forwarding it`);
      return null;
    });
    if (answer === null) return false;
    this.emit(answer, id);
    return true;
  }

  /**
   * The client's `initialize` sent to a newly found engine before anything else: a stateful
   * engine opens the session then (its id goes on every later message). The engine's answer is
   * the one the client already has; a disagreement is logged, and the engine's version is used.
   */
  private async handshake(target: BridgeTarget, line: string): Promise<void> {
    const msg = JSON.parse(line) as Json;
    this.sessionId = null;
    for (let attempt = 0; attempt < 2; attempt++) {
      // As the client sent it: an initialize carries no version header (it negotiates one).
      const { 'mcp-protocol-version': _negotiated, ...headers } = this.headers(target, msg);
      const res = await fetch(target.url, { method: 'POST', headers, body: line });
      if (res.status === 401 && attempt === 0 && this.o.key) {
        await res.body?.cancel();
        const key = await this.o.key(target).catch(() => null);
        if (key && key !== target.key) {
          target.key = key;
          continue;
        }
        return;
      }
      const session = res.headers.get('mcp-session-id');
      if (session) this.sessionId = session;
      let version: unknown;
      const answers =
        (res.headers.get('content-type') ?? '').includes('text/event-stream') && res.body
          ? sseData(res.body)
          : [await res.text()];
      for await (const text of answers) {
        try {
          version = ((JSON.parse(text) as Json).result as Json | undefined)?.protocolVersion ?? version;
        } catch {
          // not an answer: the version stays the bridge's
        }
      }
      if (typeof version === 'string' && version !== this.protocolVersion) {
        this.log(`the engine negotiated ${version}, the bridge answered ${this.protocolVersion}; using the engine's`);
        this.protocolVersion = version;
      }
      return;
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
    if (id !== null)
      this.write(
        rpcError(id, -32603, `Cairn's engine answered HTTP ${status}${text ? `: ${text.slice(0, 300)}` : ''}`),
      );
  }

  /** Ends the bridge: aborts what is in flight and ends a stateful session (best effort, briefly). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const c of this.inflight) c.abort();
    if (this.sessionId && this.current) {
      const ctl = new AbortController();
      const t = setTimeout(() => ctl.abort(), 500);
      await fetch(this.current.url, { method: 'DELETE', headers: this.headers(this.current), signal: ctl.signal }).then(
        (r) => r.body?.cancel(),
        () => undefined,
      );
      clearTimeout(t);
    }
    this.done();
  }
}

/** Why no engine answers, with what to do when the door said (e.g. the engine log's last lines). */
function unavailable(err: unknown): string {
  const remedy = (err as { remedy?: unknown }).remedy;
  return `Cairn's engine is not available: ${(err as Error).message}${typeof remedy === 'string' ? ` ${remedy}` : ''}`;
}
