import { parseSearchRequest, queriesOf, type SearchDefaults } from '../../common/requests.js';
import type { FreshnessPolicy, SearchMode } from '../../common/search.js';
import type { SearchRequest } from '../../common/requests.js';
import { argumentsOf } from '../errors.js';

/** A search request as the searcher uses it: checked by the one contract, defaults applied, dates parsed. */
export interface ValidSearch {
  queries: string[];
  mode: SearchMode;
  topK: number;
  folders: string[] | null;
  globs: string[];
  fileTypes: string[];
  modifiedAfter: number | null;
  modifiedBefore: number | null;
  minScore: number | null;
  freshness: FreshnessPolicy;
  maxChars: number;
  perFile: boolean;
}

/** Checks a search request against the contract (common/requests.ts); defaults come from the caller. */
export function validateSearch(req: SearchRequest, defaults: SearchDefaults): ValidSearch {
  const r = argumentsOf(parseSearchRequest(req, defaults));
  return {
    queries: queriesOf(r),
    mode: r.mode,
    topK: r.top_k,
    folders: r.folders ?? null,
    globs: r.globs ?? [],
    fileTypes: r.file_types ?? [],
    modifiedAfter: r.modified_after === undefined ? null : Date.parse(r.modified_after),
    modifiedBefore: r.modified_before === undefined ? null : Date.parse(r.modified_before),
    minScore: r.min_score ?? null,
    freshness: r.freshness,
    maxChars: r.max_chars,
    perFile: r.per_file ?? false,
  };
}
