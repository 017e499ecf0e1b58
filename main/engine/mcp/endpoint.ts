/**
 * The mounted MCP endpoint behind the HTTP checks: stateless (a new transport per request, as the
 * SDK requires: a transport cannot be reused; servers come from a pool) or stateful sessions with
 * crypto-random ids. `remount()` re-reads the configuration without restarting the process.
 */
import { randomBytes } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { EngineApi } from '../api.js';
import { captureMountConfig, type MountConfig } from './mount-config.js';
import { createMcpServer } from './server.js';
import { ServerPool } from './server-pool.js';
import { jsonRpcError } from '../http/responses.js';

/** Sessions are cheap but not free; past this many, new ones are refused until others end. */
const MAX_SESSIONS = 256;
/** A session unused this long is ended when a new one starts (clients that vanish never DELETE). */
const SESSION_IDLE_MS = 60 * 60 * 1000;

interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
}

export interface EndpointHooks {
  onToolResult?: (isError: boolean) => void;
  serverStatus?: () => Promise<Record<string, unknown>>;
}

/** Calls `done` once the response body has been fully sent or abandoned. */
function onBodyDone(res: Response, done: () => void): Response {
  if (!res.body) {
    done();
    return res;
  }
  let called = false;
  const once = () => {
    if (!called) {
      called = true;
      done();
    }
  };
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: end } = await reader.read();
        if (end) {
          controller.close();
          once();
        } else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        once();
      }
    },
    cancel(reason) {
      once();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

export class McpEndpoint {
  private config: MountConfig;
  private readonly sessions = new Map<string, Session>();
  private readonly pool = new ServerPool(() => this.newServer());

  constructor(private readonly engine: EngineApi, private readonly hooks: EndpointHooks = {}) {
    this.config = captureMountConfig(engine.settings);
  }

  get mount(): MountConfig {
    return this.config;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Captures the current settings; open sessions end (their clients reconnect to the new mount). */
  async remount(): Promise<MountConfig> {
    await this.closeSessions();
    await this.pool.clear();
    this.config = captureMountConfig(this.engine.settings);
    return this.config;
  }

  async close(): Promise<void> {
    await this.closeSessions();
    await this.pool.clear();
  }

  private async closeSessions(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map(async (s) => {
      await s.transport.close();
      await s.server.close();
    }));
  }

  private async endIdleSessions(): Promise<void> {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, s] of this.sessions) {
      if (s.lastSeen >= cutoff) continue;
      this.sessions.delete(id);
      await s.transport.close().catch(() => undefined);
      await s.server.close().catch(() => undefined);
    }
  }

  private newServer(): McpServer {
    return createMcpServer({
      engine: this.engine,
      mount: this.config,
      onResult: this.hooks.onToolResult,
      serverStatus: this.hooks.serverStatus,
    });
  }

  /** `body` is the already checked, parsed JSON-RPC message of a POST (undefined for GET/DELETE). */
  async handle(req: Request, body: unknown): Promise<Response> {
    return this.config.stateless ? this.handleStateless(req, body) : this.handleStateful(req, body);
  }

  private async handleStateless(req: Request, body: unknown): Promise<Response> {
    if (req.method !== 'POST') {
      return jsonRpcError(405, -32000, 'Method not allowed: this server is stateless (POST only; no GET stream, no sessions to DELETE).', { Allow: 'POST' });
    }
    const server = this.pool.take();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: this.config.jsonResponse,
    });
    await server.connect(transport);
    const method = (body as { method?: unknown } | undefined)?.method;
    // After the answer is out, not before: the SDK forgets a finished call's abort controller a
    // few microtasks after it sends the answer, and closing earlier aborts that finished call,
    // which builds an AbortError (a stack trace) on every request's path.
    const cleanup = (clean: boolean) => {
      setImmediate(() => void this.pool.release(server, transport, method, clean).catch(() => undefined));
    };
    try {
      const res = await transport.handleRequest(req, { parsedBody: body });
      // Anything but an event stream is complete when returned (the SDK builds it from a string):
      // release the server now rather than wrapping the body in one more stream.
      if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
        cleanup(true);
        return res;
      }
      return onBodyDone(res, () => cleanup(true));
    } catch (err) {
      cleanup(false);
      throw err;
    }
  }

  private async handleStateful(req: Request, body: unknown): Promise<Response> {
    const id = req.headers.get('mcp-session-id');
    if (id) {
      const session = this.sessions.get(id);
      if (!session) return jsonRpcError(404, -32001, 'Session not found: initialize a new session.');
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, { parsedBody: body });
    }
    if (req.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required.');
    await this.endIdleSessions();
    if (this.sessions.size >= MAX_SESSIONS) return jsonRpcError(503, -32000, 'Too many open sessions; close one (DELETE) and retry.');
    const server = this.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      // 32 random bytes: unguessable, so a session id is no weaker than the API key.
      sessionIdGenerator: () => randomBytes(32).toString('base64url'),
      enableJsonResponse: this.config.jsonResponse,
      onsessioninitialized: (sid) => {
        this.sessions.set(sid, { server, transport, lastSeen: Date.now() });
      },
      onsessionclosed: (sid) => {
        this.sessions.delete(sid);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    const res = await transport.handleRequest(req, { parsedBody: body });
    // A POST that did not initialize a session leaves nothing to keep.
    if (!transport.sessionId) void transport.close().then(() => server.close());
    return res;
  }
}
