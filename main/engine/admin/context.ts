/** What the admin routes need from the running server. */
import type { EngineApi } from '../api.js';
import type { McpEndpoint } from '../mcp/endpoint.js';
import type { ApiKeyStore } from '../../common/api-key.js';
import type { RequestCounters } from '../web/request-guard.js';
import { CairnError } from '../errors.js';
import { isJsonContentType, readBounded } from '../web/responses.js';

export interface AdminContext {
  engine: EngineApi;
  endpoint: McpEndpoint;
  apiKeyStore: ApiKeyStore;
  counters: RequestCounters;
  adminToken: string;
  loopbackOnly: boolean;
  stdioCommand: string[];
  /** Where this process listens, e.g. `http://127.0.0.1:58012` (no trailing slash). */
  inProcessOrigin: () => string;
  /** `mcp.public_base_url`, or the in-process origin while that setting is at its default. */
  advertisedOrigin: () => string;
  startedAt: number;
  /** Base folder for client config files (tests point it at a temp dir). */
  clientsHome: string;
  /** The folder browser's top (default: the user's home folder; tests point it at a temp dir). */
  browseHome?: string;
  platform: NodeJS.Platform;
  /** Who else can log in here; default: read /etc/passwd (tests pass their own list). */
  otherLoginUsers?: () => Promise<string[]>;
}

/** Parses a JSON request body (admin bodies are small); a bad body is `invalid_argument`. */
export async function jsonBody<T>(req: Request): Promise<T> {
  const text = await readBounded(req, 1_048_576);
  // JSON only: a form post (text/plain, urlencoded) is how another site would try to write here.
  if (text && !isJsonContentType(req.headers.get('content-type'))) {
    throw new CairnError('invalid_argument', 'Send the body as Content-Type: application/json.', {
      details: { key: 'content-type' },
    });
  }
  if (text === null) throw new CairnError('invalid_argument', 'The request body is larger than 1 MiB.');
  if (!text) return {} as T;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as T;
  } catch {
    throw new CairnError('invalid_argument', 'The request body must be a JSON object.');
  }
}
