/**
 * `cairn search` flags read into a search request by the contract's own schema and checked by its
 * own parse, so `--top-k abc` and `--type banana` are refused with the rule every surface uses.
 */
import { fromText, type Schema } from '../../common/json-schema.js';
import { checkSearchRequest, SEARCH_REQUEST_SCHEMA, type SearchRequest } from '../../common/requests.js';
import { CairnError } from '../errors.js';

/** Flag → request key. */
const FLAGS = { mode: 'mode', 'top-k': 'top_k', folder: 'folders', glob: 'globs', type: 'file_types' } as const;

function refuse(flag: string, message: string, key: string): never {
  throw new CairnError('invalid_argument', `--${flag}: ${message}`, { details: { key } });
}

export function searchRequestFromFlags(query: string, flags: Record<string, unknown>): SearchRequest {
  const req: Record<string, unknown> = { query };
  const props = SEARCH_REQUEST_SCHEMA.properties as Record<string, Schema>;
  for (const [flag, key] of Object.entries(FLAGS)) {
    const raw = flags[flag];
    if (raw === undefined) continue;
    const schema = props[key];
    if (schema.type === 'array') {
      // Lists of strings need no reading; the contract checks (and normalises) them below.
      req[key] = (Array.isArray(raw) ? raw : [raw]).map(String);
    } else {
      const r = fromText(schema, String(raw), key);
      req[key] = r.ok ? r.value : refuse(flag, r.issue.message, r.issue.key);
    }
  }
  const checked = checkSearchRequest(req);
  if (!checked.ok) {
    const flag = Object.entries(FLAGS).find(([, k]) => checked.issue.key.startsWith(k))?.[0];
    throw new CairnError('invalid_argument', flag ? `--${flag}: ${checked.issue.message}` : checked.issue.message, {
      details: { key: checked.issue.key },
    });
  }
  return req as SearchRequest;
}
