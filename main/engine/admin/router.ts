/**
 * The admin API under `/api`: Host/Origin checks (always on, whatever the MCP toggle says: this
 * API can change settings), then the per-launch admin token, then the route.
 */
import { ADMIN_ROUTES } from '../../common/admin.js';
import { bearerToken, credentialInQuery, secretEquals } from '../web/security.js';
import { errorResponse, typedError } from '../web/responses.js';
import { rebindingRefusal } from '../web/request-guard.js';
import { isOwnHost } from '../web/own-address.js';
import type { AdminContext } from './context.js';
import { engineRoutes } from './routes-engine.js';
import { mcpRoutes } from './routes-mcp.js';
import { clientRoutes } from './routes-clients.js';
import { folderRoutes } from './routes-folders.js';

const ROUTES = { ...engineRoutes, ...mcpRoutes, ...clientRoutes, ...folderRoutes };

// Every contract route must have a handler; a missing one fails at startup, not at first use.
for (const route of Object.values(ADMIN_ROUTES)) {
  if (!(route in ROUTES)) throw new Error(`admin route without a handler: ${route}`);
}

export async function handleAdmin(req: Request, ctx: AdminContext): Promise<Response> {
  const url = new URL(req.url);
  const host = req.headers.get('host');
  // The workbench is served by this same origin; it is allowed even if the MCP origin list is
  // narrowed, and this server's own loopback address is allowed whatever the Host list says.
  const refused = rebindingRefusal(
    req,
    ctx.engine.settings,
    host ? `http://${host}` : undefined,
    isOwnHost(host, ctx.inProcessOrigin()),
  );
  if (refused) {
    ctx.counters.rejected++;
    return typedError('forbidden', 'Host or Origin is not allowed for the admin API.');
  }
  if (credentialInQuery(url))
    return typedError(
      'invalid_argument',
      'Credentials are never accepted in the URL; send Authorization: Bearer <token>.',
    );
  if (!secretEquals(bearerToken(req.headers.get('authorization')), ctx.adminToken)) {
    return typedError(
      'unauthorized',
      'The admin API needs Authorization: Bearer <admin token> (printed by `cairn serve`).',
      {},
      {
        'www-authenticate': 'Bearer realm="cairn-admin"',
      },
    );
  }
  const handler = ROUTES[`${req.method} ${url.pathname}`];
  if (!handler) return typedError('not_found', `No admin route ${req.method} ${url.pathname}`);
  try {
    return await handler(req, ctx);
  } catch (err) {
    return errorResponse(err);
  }
}
