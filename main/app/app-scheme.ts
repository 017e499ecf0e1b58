/**
 * What `app://workbench/` answers, apart from Electron (protocol.ts registers it): the renderer's
 * files from the engine's one static server, and `app://workbench/api/*` forwarded to the
 * supervised engine with the admin token added here. The renderer therefore calls its own origin:
 * no CORS, no `app://` entry needed in the engine's Origin allowlist, and the engine may move
 * ports across restarts without the page noticing.
 *
 * While there is no engine to forward to, the answer says why (the supervisor's state, see
 * common/engine-away.ts): this page can be open before the engine ever answered, and "starting"
 * or "could not start" is what the person needs to read then, not a bare "not answering".
 */
import type { EngineAddress } from './channels.js';
import { ENGINE_AWAY_HEADER, type EngineAway } from '../common/engine-away.js';
import { serveStatic } from '../engine/http/static.js';

export interface SchemeEngine {
  address(): EngineAddress | null;
  away(): EngineAway | null;
}

/** Electron's `net.fetch` in the app; any fetch with the web-standard signature elsewhere. */
export type EngineFetch = (url: string, init: RequestInit) => Promise<Response>;

function engineAway(away: EngineAway): Response {
  return new Response(JSON.stringify(away), {
    status: 503,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', [ENGINE_AWAY_HEADER]: away.engine },
  });
}

/** Forwards an admin call; a 502 with no body is an engine that went quiet under a running supervisor. */
async function forwardToEngine(request: Request, url: URL, engine: SchemeEngine, fetchEngine: EngineFetch) {
  const addr = engine.address();
  if (!addr) {
    const away = engine.away();
    return away ? engineAway(away) : new Response(null, { status: 502 });
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${addr.adminToken}`, Accept: 'application/json' };
  const type = request.headers.get('content-type');
  if (type) headers['Content-Type'] = type;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  try {
    const res = await fetchEngine(addr.baseUrl + url.pathname + url.search, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
    });
    return new Response(res.body, {
      status: res.status,
      headers: { 'Content-Type': res.headers.get('content-type') ?? 'application/json', 'Cache-Control': 'no-store' },
    });
  } catch {
    return new Response(null, { status: 502 });
  }
}

export function appSchemeHandler(
  rendererRoot: string,
  engine: SchemeEngine,
  fetchEngine: EngineFetch,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'workbench') return new Response('not found', { status: 404 });
    if (url.pathname === '/api' || url.pathname.startsWith('/api/'))
      return forwardToEngine(request, url, engine, fetchEngine);
    return serveStatic(request, rendererRoot);
  };
}
