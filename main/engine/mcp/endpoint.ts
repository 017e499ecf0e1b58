/**
 * The mounted MCP endpoint behind the HTTP checks, serving both protocol eras on one URL, chosen
 * per request as the SDK classifies it:
 * - 2026-07-28 (a request carrying the `_meta` envelope, `server/discover` included): the SDK's
 *   per-request handler, stateless by the protocol itself, whatever the settings say;
 * - 2025-era (`initialize` and requests without the envelope): stateless (a new transport per
 *   request, as the SDK requires: a transport cannot be reused; servers come from a pool) or, when
 *   `mcp.stateless_http` is off, stateful sessions with crypto-random ids in a bounded table.
 * `remount()` re-reads the configuration without restarting the process.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { EngineApi } from '../api.js';
import { captureMountConfig, type MountConfig } from './mount-config.js';
import { createMcpServer } from './server.js';
import { ServerPool } from './server-pool.js';
import { SessionTable, SESSION_IDLE_MS, type SessionEntry } from './sessions.js';
import { jsonRpcError } from '../web/responses.js';
import { remoteAddress } from '../web/peer.js';
import { serveIndexTasks, TaskRegistry } from './index-tasks.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from './server-identity.js';

interface Session extends SessionEntry {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
}

export interface EndpointHooks {
  onToolResult?: (isError: boolean) => void;
  serverStatus?: () => Promise<Record<string, unknown>>;
}

/** The revisions this endpoint serves, newest first (declared in server-identity.ts). */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/**
 * A request without the 2026 envelope whose MCP-Protocol-Version header names no revision served
 * here: the spec's UnsupportedProtocolVersionError (-32022) with the supported list, so a client
 * can pick a mutual revision, rather than a bare 400 it cannot act on. The modern leg answers the
 * same error for an envelope naming an unknown revision.
 */
function unsupportedVersion(req: Request): Response | null {
  const requested = req.headers.get('mcp-protocol-version');
  if (requested === null || SERVED_PROTOCOL_VERSIONS.includes(requested)) return null;
  return jsonRpcError(
    400,
    -32022,
    `Unsupported protocol version: ${requested} (supported: ${SERVED_PROTOCOL_VERSIONS.join(', ')}).`,
    {},
    {
      supported: SERVED_PROTOCOL_VERSIONS,
      requested,
    },
  );
}

/** Open `subscriptions/listen` streams the 2026-07-28 leg accepts at once (the SDK's default is 1024). */
const MAX_LISTEN_STREAMS = 16;

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

/** Who a session belongs to, for the per-client bound: the remote address and a digest of the credentials. */
function clientOf(req: Request): string {
  const auth = req.headers.get('authorization') ?? '';
  return `${remoteAddress(req)} ${createHash('sha256').update(auth).digest('base64url').slice(0, 16)}`;
}

export class McpEndpoint {
  private config: MountConfig;
  private readonly sessions = new SessionTable<Session>();
  private readonly pool = new ServerPool(() => this.newServer());
  private modern: McpHttpHandler;
  private readonly sweep: NodeJS.Timeout;
  /** Task handles of index_update (2026-07-28 Tasks extension); they outlive remounts, as the jobs do. */
  private readonly tasks = new TaskRegistry();

  constructor(
    private readonly engine: EngineApi,
    private readonly hooks: EndpointHooks = {},
  ) {
    this.config = captureMountConfig(engine.settings);
    this.modern = this.newModernHandler();
    // Idle sessions end even when no new one comes to push them out.
    this.sweep = setInterval(() => this.sessions.endIdle(), Math.min(SESSION_IDLE_MS, 60_000));
    this.sweep.unref();
  }

  get mount(): MountConfig {
    return this.config;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Captures the current settings; open sessions end (their clients reconnect to the new mount). */
  async remount(): Promise<MountConfig> {
    await this.sessions.closeAll();
    await this.pool.clear();
    await this.modern.close();
    this.config = captureMountConfig(this.engine.settings);
    this.modern = this.newModernHandler();
    return this.config;
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    await this.sessions.closeAll();
    await this.pool.clear();
    await this.modern.close();
  }

  private newServer(): McpServer {
    return createMcpServer({
      engine: this.engine,
      mount: this.config,
      onResult: this.hooks.onToolResult,
      serverStatus: this.hooks.serverStatus,
    });
  }

  /**
   * The 2026-07-28 leg. Legacy traffic never reaches it (`reject`): this endpoint routes it to its
   * own pool or sessions. Body limits and the one-message rule are applied before, by the route.
   */
  private newModernHandler(): McpHttpHandler {
    return createMcpHandler(
      ({ requestInfo }) => {
        const server = this.newServer();
        if (this.config.toolset === 'full')
          serveIndexTasks(server, this.engine, this.tasks, requestInfo ? clientOf(requestInfo) : 'in-process');
        return server;
      },
      {
        legacy: 'reject',
        // 'auto' is JSON unless a call streams progress the client asked for; 'json' would drop that.
        responseMode: this.config.jsonResponse ? 'auto' : 'sse',
        // Each open subscriptions/listen stream holds a connection, and Cairn sends no change
        // notifications (listChanged is false): a handful is plenty, thousands would be a lever.
        maxSubscriptions: MAX_LISTEN_STREAMS,
      },
    );
  }

  /** `body` is the already checked, parsed JSON-RPC message of a POST (undefined for GET/DELETE). */
  async handle(req: Request, body: unknown): Promise<Response> {
    if (req.method === 'POST' && !(await isLegacyRequest(req, body)))
      return this.modern.fetch(req, { parsedBody: body });
    const unsupported = unsupportedVersion(req);
    if (unsupported) return unsupported;
    return this.config.stateless ? this.handleStateless(req, body) : this.handleStateful(req, body);
  }

  private async handleStateless(req: Request, body: unknown): Promise<Response> {
    if (req.method !== 'POST') {
      return jsonRpcError(
        405,
        -32000,
        'Method not allowed: this server is stateless (POST only; no GET stream, no sessions to DELETE).',
        { Allow: 'POST' },
      );
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
      const session = this.sessions.touch(id);
      if (!session) return jsonRpcError(404, -32001, 'Session not found: initialize a new session.');
      // A session is bound to the credentials that opened it: a leaked id alone is not enough.
      if (session.client !== clientOf(req))
        return jsonRpcError(404, -32001, 'Session not found: initialize a new session.');
      return session.transport.handleRequest(req, { parsedBody: body });
    }
    if (req.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required.');
    const client = clientOf(req);
    const server = this.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      // 32 random bytes: unguessable, so a session id is no weaker than the API key.
      sessionIdGenerator: () => randomBytes(32).toString('base64url'),
      enableJsonResponse: this.config.jsonResponse,
      onsessioninitialized: (sid) => {
        // Room is made only once a session really starts: a POST that initializes nothing evicts nobody.
        this.sessions.makeRoom(client);
        this.sessions.add(sid, {
          client,
          server,
          transport,
          lastSeen: Date.now(),
          uses: 1,
          close: async () => {
            await transport.close().catch(() => undefined);
            await server.close().catch(() => undefined);
          },
        });
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
