/**
 * The checks the MCP endpoint and the admin API share: Host and Origin against the allowlists
 * (DNS rebinding, cross-site pages), whether the API key is required, and the request counters
 * both keep. Here, below both surfaces, so neither imports the other's route.
 */
import type { SettingsReader } from '../api.js';
import { hostAllowed, originAllowed } from './security.js';
import { jsonRpcError } from './responses.js';

export interface RequestCounters {
  total: number;
  errors: number;
  rejected: number;
}

/** Host and Origin against the allowlists; null when they pass. Shared with the admin API. */
export function rebindingRefusal(
  req: Request,
  settings: SettingsReader,
  sameOrigin?: string,
  hostIsOwn = false,
): Response | null {
  const host = req.headers.get('host');
  if (!hostIsOwn && !hostAllowed(host, settings.get<string[]>('mcp.allowed_hosts'))) {
    return jsonRpcError(403, -32000, `Forbidden: Host '${host ?? ''}' is not in mcp.allowed_hosts.`);
  }
  const origin = req.headers.get('origin');
  if (!originAllowed(origin, settings.get<string[]>('mcp.allowed_origins'), sameOrigin)) {
    return jsonRpcError(403, -32000, `Forbidden: Origin '${origin}' is not in mcp.allowed_origins.`);
  }
  return null;
}

export function keyRequired(settings: SettingsReader, loopbackOnly: boolean): boolean {
  return settings.get<boolean>('mcp.require_api_key') || !loopbackOnly;
}
