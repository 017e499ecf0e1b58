import { FRESHNESS_POLICIES, SEARCH_MODES, TOP_K_MAX, TOP_K_MIN } from '../../common/search.js';
import type { FreshnessPolicy, SearchMode, SearchRequest } from '../../common/search.js';
import { CairnError } from '../errors.js';

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
  maxChars: number | null;
  perFile: boolean;
}

const MAX_QUERY_CHARS = 4000;
const MAX_QUERIES = 8;

function bad(message: string, field: string): CairnError {
  return new CairnError('invalid_argument', message, { details: { field } });
}

function date(value: string | undefined, field: string): number | null {
  if (value === undefined || value === null) return null;
  const t = Date.parse(value);
  if (typeof value !== 'string' || Number.isNaN(t)) throw bad(`${field} must be an ISO 8601 date-time, got ${JSON.stringify(value)}`, field);
  return t;
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.length === 0)) throw bad(`${field} must be a list of non-empty strings`, field);
  return value as string[];
}

/** Checks a search request against the contract; defaults come from the caller (the mounted server's captured defaults). */
export function validateSearch(req: SearchRequest, defaults: { mode: SearchMode; topK: number }): ValidSearch {
  if (typeof req !== 'object' || req === null) throw bad('the request must be an object', 'request');
  const queries = [...(req.query !== undefined ? [req.query] : []), ...stringList(req.queries, 'queries')];
  if (req.query !== undefined && typeof req.query !== 'string') throw bad('query must be a string', 'query');
  const cleaned = queries.map((q) => q.trim()).filter((q) => q.length > 0);
  if (cleaned.length === 0) throw bad('give a non-empty query (or queries)', 'query');
  if (cleaned.length > MAX_QUERIES) throw bad(`at most ${MAX_QUERIES} queries`, 'queries');
  if (cleaned.some((q) => q.length > MAX_QUERY_CHARS)) throw bad(`a query may have at most ${MAX_QUERY_CHARS} characters`, 'query');
  const mode = req.mode ?? defaults.mode;
  if (!SEARCH_MODES.includes(mode)) throw bad(`mode must be one of ${SEARCH_MODES.join(', ')}`, 'mode');
  const topK = req.top_k ?? defaults.topK;
  if (!Number.isInteger(topK) || topK < TOP_K_MIN || topK > TOP_K_MAX) throw bad(`top_k must be an integer from ${TOP_K_MIN} to ${TOP_K_MAX}`, 'top_k');
  const freshness = req.freshness ?? 'eventual';
  if (!FRESHNESS_POLICIES.includes(freshness)) throw bad(`freshness must be one of ${FRESHNESS_POLICIES.join(', ')}`, 'freshness');
  if (req.min_score !== undefined && (typeof req.min_score !== 'number' || !Number.isFinite(req.min_score))) throw bad('min_score must be a number', 'min_score');
  if (req.max_chars !== undefined && (!Number.isInteger(req.max_chars) || req.max_chars < 100 || req.max_chars > 200_000)) throw bad('max_chars must be an integer from 100 to 200000', 'max_chars');
  const modifiedAfter = date(req.modified_after, 'modified_after');
  const modifiedBefore = date(req.modified_before, 'modified_before');
  if (modifiedAfter !== null && modifiedBefore !== null && modifiedAfter > modifiedBefore) throw bad('modified_after is later than modified_before', 'modified_after');
  if (req.per_file !== undefined && typeof req.per_file !== 'boolean') throw bad('per_file must be true or false', 'per_file');
  const folders = req.folders === undefined ? null : stringList(req.folders, 'folders');
  return {
    queries: cleaned,
    mode,
    topK,
    folders,
    globs: stringList(req.globs, 'globs'),
    fileTypes: stringList(req.file_types, 'file_types').map((t) => t.replace(/^\./, '').toLowerCase()),
    modifiedAfter,
    modifiedBefore,
    minScore: req.min_score ?? null,
    freshness,
    maxChars: req.max_chars ?? null,
    perFile: req.per_file ?? false,
  };
}
