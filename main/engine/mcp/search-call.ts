/**
 * The one search code path behind the MCP `search` tool, `retrieve_context`, `semantic_search`,
 * `answer` and the admin API's `POST /api/search`, so the workbench playground shows exactly what
 * an agent gets.
 */
import type { SearchMode, SearchRequest, SearchResponse } from '../../common/search.js';
import { SEARCH_MODES, TOP_K_MAX, TOP_K_MIN } from '../../common/search.js';
import type { EngineApi } from '../api.js';
import { CairnError } from '../errors.js';

export interface SearchDefaults {
  defaultMode: SearchMode;
  defaultTopK: number;
}

function invalid(message: string, key: string): CairnError {
  return new CairnError('invalid_argument', message, { details: { key } });
}

/** Checks what a JSON Schema cannot say (one of query/queries; date order) before the engine runs. */
export function normalizeSearchRequest(req: SearchRequest, defaults: SearchDefaults): SearchRequest {
  const hasQuery = typeof req.query === 'string' && req.query.trim() !== '';
  const hasQueries = Array.isArray(req.queries) && req.queries.some((q) => typeof q === 'string' && q.trim() !== '');
  if (!hasQuery && !hasQueries) throw invalid('Give `query` (or `queries`): a non-empty search text.', 'query');
  const mode = req.mode ?? defaults.defaultMode;
  if (!SEARCH_MODES.includes(mode)) throw invalid(`mode must be one of ${SEARCH_MODES.join(', ')}`, 'mode');
  const topK = req.top_k ?? defaults.defaultTopK;
  if (!Number.isInteger(topK) || topK < TOP_K_MIN || topK > TOP_K_MAX) throw invalid(`top_k must be an integer in ${TOP_K_MIN}..${TOP_K_MAX}`, 'top_k');
  for (const key of ['modified_after', 'modified_before'] as const) {
    const v = req[key];
    if (v !== undefined && Number.isNaN(Date.parse(v))) throw invalid(`${key} must be an ISO 8601 date-time`, key);
  }
  return { ...req, mode, top_k: topK };
}

export async function runSearch(engine: EngineApi, req: SearchRequest, defaults: SearchDefaults): Promise<SearchResponse> {
  return engine.search(normalizeSearchRequest(req, defaults));
}
