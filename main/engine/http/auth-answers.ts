/**
 * What an MCP client is told when the key is missing or wrong, and on the OAuth discovery paths
 * clients probe after a 401. Cairn is a resource server with a static key, not an OAuth server:
 * it advertises no OAuth metadata, so clients report a missing key instead of a failed login.
 *
 * - RFC 6750 §3.1: no `error=` code when the request carried no credentials; `invalid_token`
 *   only when a token came and is wrong. The description names the fix in both cases.
 * - The discovery paths (RFC 9728 protected-resource metadata, RFC 8414 / OpenID Connect
 *   authorization-server metadata) and the legacy default endpoints (`/register`, `/authorize`,
 *   `/token`) answer 404 with a JSON body in the shape of an OAuth error: SDK-based clients that
 *   still try registration surface its `error_description` as their error message.
 */
import { json, jsonRpcError } from '../web/responses.js';

/** ASCII only, no quote or backslash: the characters RFC 6750 allows in error_description. */
const HOW_TO =
  'Cairn needs its MCP API key: send the header Authorization: Bearer <key>. The key is shown in the Cairn workbench (MCP, API key); headless it is in the mcp-api-key file of the Cairn data folder or in CAIRN_MCP_API_KEY. Cairn does not use OAuth.';

/** The 401 of the MCP endpoint. `sent`: an Authorization header came with the request. */
export function unauthorized(sent: boolean): Response {
  const message = sent
    ? `Unauthorized: the API key is wrong. ${HOW_TO}`
    : `Unauthorized: no API key was sent. ${HOW_TO}`;
  const challenge = sent
    ? `Bearer realm="cairn", error="invalid_token", error_description="The API key is wrong. ${HOW_TO}"`
    : `Bearer realm="cairn", error_description="No API key was sent. ${HOW_TO}"`;
  return jsonRpcError(401, -32001, message, { 'www-authenticate': challenge });
}

const DISCOVERY = /^\/\.well-known\/(oauth-protected-resource|oauth-authorization-server|openid-configuration)(\/.*)?$/;
const LEGACY_ENDPOINTS = new Set(['/register', '/authorize', '/token', '/revoke']);

/** Whether `pathname` is one of the OAuth paths clients probe (also under the MCP mount, e.g. `/mcp/.well-known/...`). */
export function isOAuthProbe(pathname: string, mountPath: string): boolean {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (DISCOVERY.test(p) || LEGACY_ENDPOINTS.has(p)) return true;
  const mount = mountPath.replace(/\/+$/, '');
  return mount !== '' && p.startsWith(`${mount}/`) && DISCOVERY.test(p.slice(mount.length));
}

/** 404, JSON, no metadata: a quick, plain "there is no OAuth here", whatever the method. */
export function oauthProbeAnswer(): Response {
  return json(404, { error: 'oauth_not_supported', error_description: HOW_TO });
}
