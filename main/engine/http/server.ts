/**
 * `startHttpServer`: the one HTTP server of the engine (MCP, admin API, workbench). Loopback only
 * unless `mcp.allow_non_loopback` is set, and then only with an API key.
 */
import { createServer, type Server } from 'node:http';
import { homedir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { settingSpec } from '../../common/settings.js';
import type { EngineApi } from '../api.js';
import { CairnError } from '../errors.js';
import { McpEndpoint } from '../mcp/endpoint.js';
import type { AdminContext } from '../admin/context.js';
import type { ApiKeyStore } from './api-key-store.js';
import { createHttpHandler, type HttpHandler } from './handler.js';
import type { RequestCounters } from '../web/request-guard.js';
import { nodeListener } from './node-adapter.js';
import { isLoopbackIp, nonLoopbackRefusal, resolveBindHost, type Lookup } from './bind.js';

export interface HttpServerOptions {
  /** Default: `mcp.host`. */
  host?: string;
  /** Default: `mcp.port`; 0 picks a free port. */
  port?: number;
  /** Per-launch token for `/api` (`Authorization: Bearer <token>`). */
  adminToken: string;
  apiKeyStore: ApiKeyStore;
  /** The built workbench (`renderer/dist`); without it `/` says how to build it. */
  rendererDir?: string;
  /** How a client launches Cairn over stdio, e.g. `['cairn', 'mcp', '--stdio']`. */
  stdioCommand: string[];
  /** Base folder for client config files; default the user's home (tests use a temp dir). */
  clientsHome?: string;
  /** Top of the workbench's folder browser; default the user's home (tests use a temp dir). */
  browseHome?: string;
  /** How names are resolved (default: the system's resolver; tests stand in for a hostile one). */
  lookup?: Lookup;
  /** Who else can log in to this machine (default: /etc/passwd; tests give their own list). */
  otherLoginUsers?: () => Promise<string[]>;
  /** Default: HTTP_TIMEOUTS (tests shorten them). */
  timeouts?: Partial<HttpTimeouts>;
}

/**
 * How long a client may take to send a request. A request must arrive whole (headers and body)
 * within `requestMs` of its first byte, its headers within `headersMs`; an idle keep-alive
 * connection is closed after `keepAliveMs`. Node answers a late one with 408 and closes the
 * socket. None of these touches an answer being sent: an SSE stream that a complete request
 * opened runs as long as both ends want it.
 */
export interface HttpTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

/** A 1 MiB body (mcp.max_body_bytes) arrives in well under a second on loopback; 30 s leaves room for a slow LAN. */
export const HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** Applies the timeouts; also the idle connection that never sends a byte is closed at `headersMs`. */
function applyTimeouts(server: Server, t: HttpTimeouts): void {
  // Node requires headersTimeout <= requestTimeout.
  server.requestTimeout = t.requestMs;
  server.headersTimeout = Math.min(t.headersMs, t.requestMs);
  server.keepAliveTimeout = t.keepAliveMs;
}

export interface HttpServerHandle {
  /** `http://127.0.0.1:<port>`: the origin this process listens on. */
  url: string;
  port: number;
  /** The same surface as a web-standard handler (for in-process use and tests). */
  handler: HttpHandler;
  close(): Promise<void>;
  /** Remounts MCP with the current settings (as `POST /api/mcp/restart`). */
  restartMcp(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export async function startHttpServer(engine: EngineApi, opts: HttpServerOptions): Promise<HttpServerHandle> {
  const settings = engine.settings;
  const host = opts.host ?? settings.get<string>('mcp.host');
  const allowNonLoopback = settings.get<boolean>('mcp.allow_non_loopback');
  const target = await resolveBindHost(host, opts.lookup);
  // Read once before listening: a key that breaks the rule (main/common/api-key.ts), from the
  // environment, the key file or the desktop app, stops the start here with where to fix it.
  const key = await opts.apiKeyStore.get();
  if (!target.loopback) {
    if (!allowNonLoopback) throw nonLoopbackRefusal(host === target.address ? host : `${host} (${target.address})`);
    if (key === null) {
      throw new CairnError('config_invalid', `Listening on ${host} requires an MCP API key, and none is set.`, {
        remedy: 'Set CAIRN_MCP_API_KEY or generate a key, then start again.',
        details: { key: 'mcp.require_api_key' },
      });
    }
  }
  // Settled again once listening (below), on the address really bound.
  let loopbackOnly = target.loopback;
  if (opts.adminToken.length < 16)
    throw new CairnError('invalid_argument', 'The admin token must be at least 16 characters.');

  const counters: RequestCounters = { total: 0, errors: 0, rejected: 0 };
  let origin = '';
  const endpoint: McpEndpoint = new McpEndpoint(engine, {
    onToolResult: (isError) => {
      if (isError) counters.errors++;
    },
    serverStatus: async (): Promise<Record<string, unknown>> => ({
      in_process_url: origin + endpoint.mount.mountPath,
      requests: { ...counters },
    }),
  });
  const configuredBase = () => {
    const v = settings.get<string>('mcp.public_base_url');
    // While the setting is at its default, advertise the port actually bound (`--port`, port 0).
    return v === settingSpec('mcp.public_base_url')?.default ? origin : v.replace(/\/+$/, '');
  };
  const admin: AdminContext = {
    engine,
    endpoint,
    apiKeyStore: opts.apiKeyStore,
    counters,
    adminToken: opts.adminToken,
    loopbackOnly,
    stdioCommand: opts.stdioCommand,
    inProcessOrigin: () => origin,
    advertisedOrigin: configuredBase,
    startedAt: Date.now(),
    clientsHome: opts.clientsHome ?? homedir(),
    browseHome: opts.browseHome,
    platform: process.platform,
    otherLoginUsers: opts.otherLoginUsers,
  };
  const mcpDeps = { settings, endpoint, apiKeyStore: opts.apiKeyStore, counters, loopbackOnly };
  const handler = createHttpHandler({
    mcp: mcpDeps,
    admin,
    rendererDir: opts.rendererDir,
  });
  const timeouts = { ...HTTP_TIMEOUTS, ...opts.timeouts };
  const server: Server = createServer(
    // Our Host check answers a missing Host too (403 with a JSON-RPC body), not Node's bare 400.
    // How often Node looks for late requests: a fraction of the shortest deadline, so a slow
    // request is cut close to its deadline rather than up to 30 s (Node's default) after it.
    {
      requireHostHeader: false,
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)),
      ),
    },
    nodeListener(handler, () => origin),
  );
  applyTimeouts(server, timeouts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The resolved address, not the name: what was judged above is what is bound.
    server.listen(opts.port ?? settings.get<number>('mcp.port'), target.address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  // Checked again on what the socket really holds: nothing but loopback without the opt-in.
  if (!isLoopbackIp(bound.address) && !allowNonLoopback) {
    await new Promise<void>((r) => server.close(() => r()));
    throw nonLoopbackRefusal(`${host} (bound ${bound.address})`);
  }
  loopbackOnly = target.loopback && isLoopbackIp(bound.address);
  if (!loopbackOnly && key === null) {
    await new Promise<void>((r) => server.close(() => r()));
    throw new CairnError('config_invalid', `Listening on ${bound.address} requires an MCP API key, and none is set.`, {
      details: { key: 'mcp.require_api_key' },
    });
  }
  admin.loopbackOnly = mcpDeps.loopbackOnly = loopbackOnly;
  const port = bound.port;
  // A wildcard bind is dialled in-process over loopback.
  const wildcard = bound.address === '0.0.0.0' || bound.address === '::';
  origin = `http://${urlHost(wildcard ? '127.0.0.1' : bound.address)}:${port}`;
  return {
    url: origin,
    port,
    handler,
    restartMcp: async () => {
      await endpoint.remount();
    },
    close: async () => {
      await endpoint.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
