/**
 * The search, read and grep requests, declared once: limits, defaults and the schemas every
 * surface derives from. The MCP tools list these schemas as their input schemas, the admin API,
 * the CLI and the engine check requests with the parse functions below, and the request types
 * are the schemas' types. Defaults are applied here and nowhere else; the two that come from
 * settings (mode, top_k) are passed in by whoever captured them (the mounted MCP server, or the
 * engine for a caller without a mount).
 */
import type { ArgumentIssue, FromSchema, Schema } from './json-schema.js';
import { checkSchema } from './json-schema.js';
import { FILE_KINDS, FILE_TYPES } from './file-types.js';
import { FRESHNESS_POLICIES, SEARCH_MODES, TOP_K_MAX, TOP_K_MIN } from './search.js';
import type { FreshnessPolicy, SearchMode } from './search.js';

export const LIMITS = {
  queryChars: 4000,
  queries: 8,
  topK: { min: TOP_K_MIN, max: TOP_K_MAX },
  /**
   * Bound on what one MCP call returns (text and structured alike). At least 1,000: room for the
   * folders' freshness, the note and one hit, which every result carries.
   */
  maxChars: { min: 1000, max: 200_000 },
  pathChars: 4096,
  paths: 100,
  globs: 50,
  globChars: 1000,
  fileTypes: 50,
  /** Lines one read returns at most, whatever range was asked for. */
  readLines: 2000,
  patternChars: 1000,
  /**
   * Counting every match of a pattern (what ripgrep's counts are checked against) needs thousands;
   * what a model is shown is bounded by max_chars whatever this is.
   */
  maxMatches: { min: 1, max: 5000 },
} as const;

export const DEFAULTS = {
  freshness: 'eventual' as FreshnessPolicy,
  /** 12,000 characters: a top_k 100 search stays far below what clients inline (see README). */
  maxChars: 12_000,
  startLine: 1,
  /** Lines a read returns when no end_line is given. */
  readLines: 200,
  maxMatches: 200,
  regex: false,
  caseSensitive: true,
} as const;

/** The two search defaults that are settings (`mcp.default_mode`, `mcp.default_top_k`). */
export interface SearchDefaults {
  mode: SearchMode;
  topK: number;
}

const maxChars = {
  type: 'integer',
  minimum: LIMITS.maxChars.min,
  maximum: LIMITS.maxChars.max,
  description: `Bound on the result in characters, text and structured alike (default ${DEFAULTS.maxChars}); hits beyond it are left out and counted.`,
} as const;
const query = { type: 'string', minLength: 1, maxLength: LIMITS.queryChars } as const;
const pathList = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: LIMITS.pathChars },
  maxItems: LIMITS.paths,
} as const;
const globList = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: LIMITS.globChars },
  maxItems: LIMITS.globs,
  description: 'Path globs relative to the folder, in order; a leading ! excludes.',
} as const;

export const SEARCH_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    query: { ...query, description: 'What you are looking for, in words. Give `query` or `queries`.' },
    queries: {
      type: 'array',
      items: query,
      minItems: 1,
      maxItems: LIMITS.queries,
      description: 'Several phrasings of one need; their results are fused.',
    },
    mode: {
      enum: SEARCH_MODES,
      description: 'vector (meaning), sparse (words, BM25), hybrid (both), tribrid (both plus the link/import graph).',
    },
    top_k: {
      type: 'integer',
      minimum: LIMITS.topK.min,
      maximum: LIMITS.topK.max,
      description: `How many hits (${LIMITS.topK.min}..${LIMITS.topK.max}).`,
    },
    folders: { ...pathList, description: 'Absolute folder paths to search (as indexed); default: all.' },
    globs: globList,
    file_types: {
      type: 'array',
      items: { enum: FILE_TYPES },
      maxItems: LIMITS.fileTypes,
      description:
        'Kinds (text, markdown, code, html, pdf, docx, data) or extensions without the dot (md, ts); for any other extension use globs.',
    },
    modified_after: { type: 'string', format: 'date-time', description: 'ISO 8601 date-time.' },
    modified_before: { type: 'string', format: 'date-time', description: 'ISO 8601 date-time.' },
    min_score: { type: 'number', description: 'Drop hits scoring below this.' },
    freshness: {
      enum: FRESHNESS_POLICIES,
      description: `eventual (default) or wait_for_fresh (wait for pending index updates first).`,
    },
    max_chars: maxChars,
    per_file: {
      type: 'boolean',
      description: "At most one hit per file: its best chunk, with the file's other matching ranges in other_ranges.",
    },
  },
  additionalProperties: false,
} as const satisfies Schema;

export const READ_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: LIMITS.pathChars,
      description: 'Absolute path of a file inside an indexed folder, as search returns it.',
    },
    start_line: { type: 'integer', minimum: 1, description: `First line (1-based). Default ${DEFAULTS.startLine}.` },
    end_line: {
      type: 'integer',
      minimum: 1,
      description: `Last line (inclusive). Default: ${DEFAULTS.readLines} lines from start_line; at most ${LIMITS.readLines} lines are returned.`,
    },
    page: {
      type: 'integer',
      minimum: 1,
      description: 'For a PDF: the page whose lines to read (search hits carry it). Default 1.',
    },
    max_chars: { ...maxChars, description: `Bound on the returned text (default ${DEFAULTS.maxChars}).` },
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies Schema;

export const GREP_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      minLength: 1,
      maxLength: LIMITS.patternChars,
      description: 'A literal string, or a regular expression with regex: true.',
    },
    regex: { type: 'boolean', description: `Treat pattern as a regular expression (default ${DEFAULTS.regex}).` },
    case_sensitive: { type: 'boolean', description: `Default ${DEFAULTS.caseSensitive}.` },
    folders: { ...pathList, description: 'Absolute folder paths to search (as indexed); default: all.' },
    globs: globList,
    max_matches: {
      type: 'integer',
      minimum: LIMITS.maxMatches.min,
      maximum: LIMITS.maxMatches.max,
      description: `Default ${DEFAULTS.maxMatches}.`,
    },
    max_chars: maxChars,
  },
  required: ['pattern'],
  additionalProperties: false,
} as const satisfies Schema;

export type SearchRequest = FromSchema<typeof SEARCH_REQUEST_SCHEMA>;
export type ReadRequest = FromSchema<typeof READ_REQUEST_SCHEMA>;
export type GrepRequest = FromSchema<typeof GREP_REQUEST_SCHEMA>;

/** A search with every default applied; itself a valid request (parsing it again changes nothing). */
export type ResolvedSearchRequest = Omit<SearchRequest, 'mode' | 'top_k' | 'freshness' | 'max_chars'> & {
  mode: SearchMode;
  top_k: number;
  freshness: FreshnessPolicy;
  max_chars: number;
};
export type ResolvedReadRequest = ReadRequest & { start_line: number; end_line: number; max_chars: number };
export type ResolvedGrepRequest = GrepRequest & {
  regex: boolean;
  case_sensitive: boolean;
  max_matches: number;
  max_chars: number;
};

export type Parsed<T> = { ok: true; value: T } | { ok: false; issue: ArgumentIssue };

export const refuse = (key: string, message: string): Parsed<never> => ({ ok: false, issue: { key, message } });

/** Drops keys whose value is null or undefined: both mean "not given" on every surface. */
export function given(input: unknown): Record<string, unknown> | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null));
}

/** The search schema as a mounted server lists it: the schema above plus the defaults it captured. */
export function searchRequestSchema(defaults: SearchDefaults): Schema {
  const p = SEARCH_REQUEST_SCHEMA.properties;
  return {
    ...SEARCH_REQUEST_SCHEMA,
    properties: {
      ...p,
      mode: { ...p.mode, default: defaults.mode },
      top_k: { ...p.top_k, default: defaults.topK },
      freshness: { ...p.freshness, default: DEFAULTS.freshness },
      max_chars: { ...p.max_chars, default: DEFAULTS.maxChars },
    },
  };
}

/** Checks a search request without applying any default (for a caller that does not know them: the CLI). */
export function checkSearchRequest(input: unknown): Parsed<SearchRequest> {
  const req = given(input);
  if (!req) return refuse('request', 'the search request must be an object such as {"query": "…"}');
  // `.MD` and `md` name the same files; the schema lists the canonical spelling.
  if (Array.isArray(req.file_types))
    req.file_types = req.file_types.map((t) => (typeof t === 'string' ? t.replace(/^\./, '').toLowerCase() : t));
  const unknownType = Array.isArray(req.file_types)
    ? req.file_types.findIndex((t) => typeof t === 'string' && !FILE_TYPES.includes(t))
    : -1;
  if (unknownType >= 0) {
    const t = (req.file_types as string[])[unknownType];
    return refuse(
      `file_types[${unknownType}]`,
      `unknown file type ${JSON.stringify(t)}: give a kind (${FILE_KINDS.join(', ')}) or a known extension (md, ts, py, pdf…); for any other extension use a glob such as "*.${t.replace(/[^A-Za-z0-9_+-]/g, '')}"`,
    );
  }
  const issue = checkSchema(SEARCH_REQUEST_SCHEMA, req, '');
  if (issue) return { ok: false, issue };
  const r = req as SearchRequest;
  if (queriesOf(r).length === 0) return refuse('query', 'give a non-empty query (or queries)');
  if (
    r.modified_after !== undefined &&
    r.modified_before !== undefined &&
    Date.parse(r.modified_after) > Date.parse(r.modified_before)
  ) {
    return refuse('modified_after', 'modified_after is later than modified_before');
  }
  return { ok: true, value: r };
}

/** Every phrasing a search asks for (`query` and `queries`), trimmed, the empty ones dropped. */
export function queriesOf(r: Pick<SearchRequest, 'query' | 'queries'>): string[] {
  return [...(r.query !== undefined ? [r.query] : []), ...(r.queries ?? [])]
    .map((q) => q.trim())
    .filter((q) => q.length > 0);
}

/** Checks a search request and applies the defaults: the one place they are applied. */
export function parseSearchRequest(input: unknown, defaults: SearchDefaults): Parsed<ResolvedSearchRequest> {
  const checked = checkSearchRequest(input);
  if (!checked.ok) return checked;
  const r = checked.value;
  return {
    ok: true,
    value: {
      ...r,
      mode: r.mode ?? defaults.mode,
      top_k: r.top_k ?? defaults.topK,
      freshness: r.freshness ?? DEFAULTS.freshness,
      max_chars: r.max_chars ?? DEFAULTS.maxChars,
    },
  };
}

export function parseReadRequest(input: unknown): Parsed<ResolvedReadRequest> {
  const req = given(input);
  if (!req) return refuse('request', 'the read request must be an object such as {"path": "/abs/file.md"}');
  const issue = checkSchema(READ_REQUEST_SCHEMA, req, '');
  if (issue) return { ok: false, issue };
  const r = req as ReadRequest;
  const start = r.start_line ?? DEFAULTS.startLine;
  const end = r.end_line ?? start + DEFAULTS.readLines - 1;
  if (end < start) return refuse('end_line', `end_line must be at least start_line (${start}), got ${end}`);
  return { ok: true, value: { ...r, start_line: start, end_line: end, max_chars: r.max_chars ?? DEFAULTS.maxChars } };
}

export function parseGrepRequest(input: unknown): Parsed<ResolvedGrepRequest> {
  const req = given(input);
  if (!req) return refuse('request', 'the grep request must be an object such as {"pattern": "…"}');
  const issue = checkSchema(GREP_REQUEST_SCHEMA, req, '');
  if (issue) return { ok: false, issue };
  const r = req as GrepRequest;
  return {
    ok: true,
    value: {
      ...r,
      regex: r.regex ?? DEFAULTS.regex,
      case_sensitive: r.case_sensitive ?? DEFAULTS.caseSensitive,
      max_matches: r.max_matches ?? DEFAULTS.maxMatches,
      max_chars: r.max_chars ?? DEFAULTS.maxChars,
    },
  };
}
