/**
 * The admin API under `/api`: Host/Origin checks (always on, whatever the MCP toggle says: this
 * API can change settings), then the per-launch admin token, then the route from the one route
 * table (common/admin-api.ts): its request read as the table says, checked against its schema,
 * handed to its handler, and the answer sent with the route's status.
 */
import { ADMIN_API, type AdminRoute, type AdminRouteName } from '../../common/admin-api.js';
import { checkSchema, fromQuery, type ArgumentIssue } from '../../common/json-schema.js';
import { CairnError } from '../errors.js';
import { bearerToken, credentialInQuery, secretEquals } from '../web/security.js';
import { errorResponse, json, typedError } from '../web/responses.js';
import { rebindingRefusal } from '../web/request-guard.js';
import { isOwnHost } from '../web/own-address.js';
import { jsonBody, type AdminContext } from './context.js';
import { Reply, type AdminHandlers } from './handlers.js';
import { engineRoutes } from './routes-engine.js';
import { mcpRoutes } from './routes-mcp.js';
import { clientRoutes } from './routes-clients.js';
import { folderRoutes } from './routes-folders.js';

// Typed as the whole table: a route without a handler does not compile.
const HANDLERS: AdminHandlers = { ...engineRoutes, ...mcpRoutes, ...clientRoutes, ...folderRoutes };

const BY_METHOD_PATH = new Map<string, AdminRouteName>(
  (Object.entries(ADMIN_API) as [AdminRouteName, AdminRoute][]).map(([name, r]) => [`${r.method} ${r.path}`, name]),
);

function refuse(issue: ArgumentIssue): never {
  throw new CairnError('invalid_argument', issue.message, { details: { key: issue.key } });
}

/** Refuses the first of `keys`: the route takes nothing there (no URL parameters; for `none`, no body either). */
function refuseAny(keys: Iterable<string>, route: AdminRoute, where: string): void {
  for (const key of keys) {
    const body = route.input === 'body' ? ' (its arguments go in the JSON body)' : '';
    refuse({ key, message: `unknown argument ${key}: ${route.method} ${route.path} takes no ${where}${body}` });
  }
}

/** The request as the route declares it travels, read as its schema's types and checked against it. */
async function inputOf(req: Request, url: URL, route: AdminRoute): Promise<unknown> {
  if (route.input === 'query') {
    const read = fromQuery(route.request, url.searchParams);
    return read.ok ? read.value : refuse(read.issue);
  }
  refuseAny(url.searchParams.keys(), route, 'URL parameters');
  if (route.input === 'none') {
    // A GET has no body to read; a POST sent nothing may still carry an empty one (`{}` or nothing).
    if (req.body !== null) refuseAny(Object.keys(await jsonBody<object>(req)), route, 'arguments');
    return undefined;
  }
  const body = await jsonBody<Record<string, unknown>>(req);
  if (route.check) {
    const checked = route.check(body);
    return checked.ok ? checked.value : refuse(checked.issue);
  }
  const issue = checkSchema(route.request, body, '');
  return issue ? refuse(issue) : body;
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
  const name = BY_METHOD_PATH.get(`${req.method} ${url.pathname}`);
  if (!name) return typedError('not_found', `No admin route ${req.method} ${url.pathname}`);
  const route: AdminRoute = ADMIN_API[name];
  try {
    const handler = HANDLERS[name] as (input: unknown, ctx: AdminContext, req: Request) => Promise<unknown>;
    const out = await handler(await inputOf(req, url, route), ctx, req);
    return out instanceof Reply ? json(out.status, out.body) : json(route.status, out);
  } catch (err) {
    return errorResponse(err);
  }
}
