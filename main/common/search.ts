/** Search contract: the request every surface accepts (MCP, admin API, CLI) and the hits it returns. */
import type { FromSchema, Schema } from './json-schema.js';

export const SEARCH_MODES = ['vector', 'sparse', 'hybrid', 'tribrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const RETRIEVAL_LEGS = ['vector', 'sparse', 'graph'] as const;
export type RetrievalLeg = (typeof RETRIEVAL_LEGS)[number];

export const FRESHNESS_POLICIES = ['eventual', 'wait_for_fresh'] as const;
export type FreshnessPolicy = (typeof FRESHNESS_POLICIES)[number];

export const TOP_K_MIN = 1;
/** 100, so an agent (and the benchmark's Recall@100) can ask for as many hits as retrieval tests score. */
export const TOP_K_MAX = 100;

export const FOLDER_STATES = ['indexing', 'fresh', 'possibly_stale', 'error'] as const;
export type FolderState = (typeof FOLDER_STATES)[number];

/*
 * What the engine answers to search, read and grep (the admin API, `cairn … --json`, in-process
 * callers), declared as schemas like the requests (requests.ts): the types below are the
 * schemas' types, and test/mcp/contract.test.ts checks the admin API's and the CLI's answers
 * against these schemas. What MCP tools return is the model-facing shape (results.ts).
 */

const lines = { type: 'integer', minimum: 1 } as const;
const page = { type: 'integer', minimum: 1, description: '1-based page for paginated documents (PDF).' } as const;
const rank = { type: 'integer', minimum: 1 } as const;

/** How fresh a folder is, attached to every hit from it. */
export const FRESHNESS_SCHEMA = {
  type: 'object',
  properties: {
    state: { enum: FOLDER_STATES },
    vector_coverage: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: "Share of the folder's chunks that have vectors (0..1); below 1 while vectors are computed.",
    },
    updated_at: {
      type: ['string', 'null'],
      description: 'ISO time of the last applied update, or null if never indexed.',
    },
    pending_changes: { type: 'integer', minimum: 0, description: 'Changes seen but not yet applied.' },
  },
  required: ['state', 'vector_coverage', 'updated_at', 'pending_changes'],
  additionalProperties: false,
} as const satisfies Schema;

export const LINE_RANGE_SCHEMA = {
  type: 'object',
  properties: { start_line: lines, end_line: lines, page },
  required: ['start_line', 'end_line'],
  additionalProperties: false,
} as const satisfies Schema;

export const SEARCH_HIT_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Absolute path of the file.' },
    folder: { type: 'string', description: 'The indexed folder the file belongs to.' },
    start_line: { ...lines, description: '1-based, inclusive. For PDF, lines within the page.' },
    end_line: lines,
    page,
    snippet: { type: 'string', description: 'The chunk text with line numbers (`12│ text`).' },
    score: { type: 'number' },
    legs: {
      type: 'object',
      properties: { vector: rank, sparse: rank, graph: rank },
      additionalProperties: false,
      description: '1-based rank each leg gave the hit; absent when that leg did not return it.',
    },
    symbol: { type: 'string', description: 'Code symbol the chunk belongs to.' },
    heading: { type: 'string', description: 'Heading path the chunk belongs to.' },
    kind: { type: 'string' },
    language: { type: 'string' },
    modified_at: { type: 'string' },
    freshness: FRESHNESS_SCHEMA,
    legs_abstained: {
      type: 'array',
      items: { enum: RETRIEVAL_LEGS },
      description: 'Legs that declined this search; their ranks are absent, not poor.',
    },
    other_ranges: {
      type: 'array',
      items: LINE_RANGE_SCHEMA,
      description: "With per_file: the file's other matching chunks, best first (at most 10).",
    },
  },
  required: [
    'path',
    'folder',
    'start_line',
    'end_line',
    'snippet',
    'score',
    'legs',
    'kind',
    'modified_at',
    'freshness',
  ],
  additionalProperties: false,
} as const satisfies Schema;

export const SEARCH_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    hits: { type: 'array', items: SEARCH_HIT_SCHEMA },
    mode: { enum: SEARCH_MODES },
    legs_answered: { type: 'array', items: { enum: RETRIEVAL_LEGS }, description: 'The legs that ran and answered.' },
    /**
     * Legs that declined rather than answer badly, and why: the vector leg abstains on a query its
     * model cannot represent (mostly words outside its vocabulary, e.g. a script it was not trained on).
     */
    legs_abstained: {
      type: 'array',
      items: {
        type: 'object',
        properties: { leg: { enum: RETRIEVAL_LEGS }, reason: { type: 'string' } },
        required: ['leg', 'reason'],
        additionalProperties: false,
      },
    },
    folders: {
      type: 'object',
      additionalProperties: FRESHNESS_SCHEMA,
      description: 'Per-folder freshness of the folders searched.',
    },
    took_ms: { type: 'number', minimum: 0 },
  },
  required: ['hits', 'mode', 'legs_answered', 'folders', 'took_ms'],
  additionalProperties: false,
} as const satisfies Schema;

export const READ_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    folder: { type: 'string' },
    page,
    start_line: lines,
    end_line: lines,
    total_lines: { type: 'integer', minimum: 0 },
    content: { type: 'string', description: 'Text with line numbers.' },
    truncated: { type: 'boolean' },
  },
  required: ['path', 'folder', 'start_line', 'end_line', 'total_lines', 'content', 'truncated'],
  additionalProperties: false,
} as const satisfies Schema;

export const GREP_MATCH_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' }, line: lines, text: { type: 'string' } },
  required: ['path', 'line', 'text'],
  additionalProperties: false,
} as const satisfies Schema;

export const GREP_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    matches: { type: 'array', items: GREP_MATCH_SCHEMA },
    files_searched: { type: 'integer', minimum: 0 },
    truncated: { type: 'boolean' },
  },
  required: ['matches', 'files_searched', 'truncated'],
  additionalProperties: false,
} as const satisfies Schema;

export type Freshness = FromSchema<typeof FRESHNESS_SCHEMA>;
export type LegRanks = Partial<Record<RetrievalLeg, number>>;
export type LineRange = FromSchema<typeof LINE_RANGE_SCHEMA>;
export type SearchHit = FromSchema<typeof SEARCH_HIT_SCHEMA>;
export type SearchResponse = FromSchema<typeof SEARCH_RESPONSE_SCHEMA>;
export type ReadResult = FromSchema<typeof READ_RESPONSE_SCHEMA>;
export type GrepMatch = FromSchema<typeof GREP_MATCH_SCHEMA>;
export type GrepResult = FromSchema<typeof GREP_RESPONSE_SCHEMA>;
