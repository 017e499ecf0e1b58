/**
 * The whole HTTP surface as one web-standard handler: MCP at the mount path, the admin API under
 * `/api`, the workbench everywhere else. The node:http adapter is a thin shell around it.
 */
import type { AdminContext } from '../admin/context.js';
import { handleAdmin } from '../admin/router.js';
import { handleMcp, type McpRouteDeps } from './mcp-route.js';
import { isOAuthProbe, oauthProbeAnswer } from './auth-answers.js';
import { hostAllowed } from '../web/security.js';
import { isOwnHost } from '../web/own-address.js';
import { errorResponse } from '../web/responses.js';
import { serveStatic } from './static.js';

export type HttpHandler = (req: Request) => Promise<Response>;

export interface HandlerDeps {
  mcp: McpRouteDeps;
  admin: AdminContext;
  rendererDir?: string;
}

export function createHttpHandler(deps: HandlerDeps): HttpHandler {
  return async (req) => {
    try {
      const { pathname } = new URL(req.url);
      const mountPath = deps.mcp.endpoint.mount.mountPath;
      if (pathname === mountPath || pathname === `${mountPath}/`) return await handleMcp(req, deps.mcp);
      if (pathname === '/api' || pathname.startsWith('/api/')) return await handleAdmin(req, deps.admin);
      const host = req.headers.get('host');
      // The page that edits the allowlist stays reachable at this server's own loopback address.
      if (
        !isOwnHost(host, deps.admin.inProcessOrigin()) &&
        !hostAllowed(host, deps.mcp.settings.get<string[]>('mcp.allowed_hosts'))
      ) {
        return new Response('Forbidden: Host not allowed', { status: 403, headers: { 'content-type': 'text/plain' } });
      }
      if (isOAuthProbe(pathname, mountPath)) return oauthProbeAnswer();
      return await serveStatic(req, deps.rendererDir);
    } catch (err) {
      return errorResponse(err);
    }
  };
}
