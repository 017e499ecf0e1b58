/**
 * The checks in front of the MCP endpoint, in the order that leaks least: credentials in the URL,
 * Host/Origin (DNS rebinding and cross-site pages), the API key, then the shape of the request.
 * Anything refused here never reaches a tool.
 */
import type { SettingsApi, SettingsReader } from '../api.js';
import type { McpEndpoint } from '../mcp/endpoint.js';
import type { ApiKeyStore } from './api-key-store.js';
import { bearerToken, credentialInQuery, secretEquals } from '../web/security.js';
import { keyRequired, rebindingRefusal, type RequestCounters } from '../web/request-guard.js';
import { unauthorized } from './auth-answers.js';
import { isJsonContentType, jsonRpcError, readBounded } from '../web/responses.js';

export interface McpRouteDeps {
  settings: SettingsApi;
  endpoint: McpEndpoint;
  apiKeyStore: ApiKeyStore;
  counters: RequestCounters;
  /** False when bound to a non-loopback address: then the key is required whatever the setting. */
  loopbackOnly: boolean;
}

async function refusal(req: Request, deps: McpRouteDeps, settings: SettingsReader): Promise<Response | null> {
  if (!settings.get<boolean>('mcp.enabled'))
    return jsonRpcError(503, -32000, 'MCP is disabled (mcp.enabled is false).');
  const param = credentialInQuery(new URL(req.url));
  if (param) {
    return jsonRpcError(
      400,
      -32000,
      `Credentials are never accepted in the URL (query parameter '${param}'); send Authorization: Bearer <key>.`,
    );
  }
  if (settings.get<boolean>('mcp.enable_dns_rebinding_protection')) {
    const refused = rebindingRefusal(req, settings);
    if (refused) return refused;
  }
  if (keyRequired(settings, deps.loopbackOnly)) {
    const expected = await deps.apiKeyStore.get();
    const header = req.headers.get('authorization');
    if (!secretEquals(bearerToken(header), expected)) return unauthorized(header !== null && header.trim() !== '');
  }
  return null;
}

/** Reads and checks a POST body: one JSON-RPC message, JSON content type, bounded, known protocol. */
async function postBody(req: Request, settings: SettingsReader): Promise<{ body: unknown } | Response> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    return jsonRpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json.');
  }
  const limit = settings.get<number>('mcp.max_body_bytes');
  const text = await readBounded(req, limit);
  if (text === null)
    return jsonRpcError(413, -32000, `Payload Too Large: the body exceeds mcp.max_body_bytes (${limit} bytes).`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return jsonRpcError(400, -32700, 'Parse error: the body is not valid JSON.');
  }
  if (Array.isArray(body))
    return jsonRpcError(
      400,
      -32600,
      'Invalid Request: send one JSON-RPC message at a time (batches are not supported).',
    );
  if (typeof body !== 'object' || body === null)
    return jsonRpcError(400, -32600, 'Invalid Request: the body must be a JSON-RPC message object.');
  return { body };
}

export async function handleMcp(req: Request, deps: McpRouteDeps): Promise<Response> {
  deps.counters.total++;
  // Every check of this request reads one snapshot: one look at config.json, values that agree.
  const settings = deps.settings.snapshot();
  const refused = await refusal(req, deps, settings);
  if (refused) {
    deps.counters.rejected++;
    return refused;
  }
  let body: unknown;
  if (req.method === 'POST') {
    const parsed = await postBody(req, settings);
    if (parsed instanceof Response) {
      deps.counters.rejected++;
      return parsed;
    }
    body = parsed.body;
  } else if (req.method !== 'GET' && req.method !== 'DELETE') {
    deps.counters.rejected++;
    return jsonRpcError(405, -32000, 'Method not allowed.', { Allow: 'POST, GET, DELETE' });
  }
  const res = await deps.endpoint.handle(req, body);
  if (res.status >= 400) deps.counters[res.status >= 500 ? 'errors' : 'rejected']++;
  return res;
}
