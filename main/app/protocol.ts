/**
 * Serves renderer/dist over app://workbench/ instead of file://: a real origin (so the CSP and
 * the sender checks mean something), no file:// privileges, and no path outside the renderer
 * folder can be read. The files come from the engine's one static server (engine/http/static.ts:
 * the same types, CSP and containment as the headless workbench); Electron's fs reads from asar.
 *
 * `app://workbench/api/*` is forwarded to the supervised engine with the admin token added here.
 * The renderer therefore calls its own origin: no CORS, no `app://` entry needed in the engine's
 * Origin allowlist, and the engine may move ports across restarts without the page noticing.
 */
import { net, protocol } from 'electron';
import type { EngineAddress } from './channels.js';
import { WORKBENCH_CSP } from '../common/csp.js';
import { serveStatic } from '../engine/http/static.js';

/** The CSP the workbench runs under; API calls go to this origin (forwarded to the engine). */
export { WORKBENCH_CSP };

/** Must run before `app.whenReady()`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Forwards an admin call; a 502 with no body tells the workbench the engine is away (banner). */
async function forwardToEngine(request: Request, url: URL, addr: EngineAddress | null): Promise<Response> {
  if (!addr) return new Response(null, { status: 502 });
  const headers: Record<string, string> = { Authorization: `Bearer ${addr.adminToken}`, Accept: 'application/json' };
  const type = request.headers.get('content-type');
  if (type) headers['Content-Type'] = type;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  try {
    const res = await net.fetch(addr.baseUrl + url.pathname + url.search, {
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

export function handleAppScheme(rendererRoot: string, engineAddress: () => EngineAddress | null): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'workbench') return new Response('not found', { status: 404 });
    if (url.pathname === '/api' || url.pathname.startsWith('/api/'))
      return forwardToEngine(request, url, engineAddress());
    return serveStatic(request, rendererRoot);
  });
}
