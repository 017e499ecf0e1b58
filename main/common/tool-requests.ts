/**
 * The requests and results of the MCP tools beyond search, read and grep (index management,
 * status, `answer`, and the `retrieve_context` / `semantic_search` aliases), declared once like
 * those (requests.ts, results.ts): the MCP tools list these schemas as they are, the handlers
 * check arguments with the parse functions below (one validator, one message, one error-detail
 * key), and the types are the schemas' types. Shared limits are the search contract's.
 */
import type { FromSchema, Schema } from './json-schema.js';
import { checkSchema } from './json-schema.js';
import { given, LIMITS, refuse, type Parsed } from './requests.js';

/** The defaults of these tools, applied by their parse functions and nowhere else. */
export const TOOL_DEFAULTS = {
  indexKind: 'update',
  retrieveTopK: 10,
  semanticThreshold: 0.7,
  answerTopK: 8,
} as const;

const folderPath = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.pathChars,
  description: 'Absolute path of an indexed folder.',
} as const;
const topK = { type: 'integer', minimum: LIMITS.topK.min, maximum: LIMITS.topK.max } as const;
const query = { type: 'string', minLength: 1, maxLength: LIMITS.queryChars } as const;

export const EMPTY_REQUEST_SCHEMA = {
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const satisfies Schema;

export const INDEX_UPDATE_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    path: folderPath,
    kind: {
      enum: ['create', 'update', 'rebuild'],
      description: `update (default): apply changes; rebuild: from scratch; create: a folder not yet indexed.`,
    },
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies Schema;

export const INDEX_DROP_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    path: folderPath,
    confirm: { enum: [true], description: "Must be true: dropping deletes the folder's index (not its files)." },
  },
  required: ['path', 'confirm'],
  additionalProperties: false,
} as const satisfies Schema;

export const RETRIEVE_CONTEXT_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    query,
    filters: {
      type: 'object',
      properties: {
        source: {
          type: 'string',
          minLength: 1,
          maxLength: LIMITS.pathChars,
          description: 'An indexed folder (absolute path) or a path glob within the folders.',
        },
        tags: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          maxItems: LIMITS.fileTypes,
          description: 'File extensions or kinds (md, ts, code, pdf).',
        },
      },
      additionalProperties: false,
    },
    top_k: { ...topK, description: `${LIMITS.topK.min}..${LIMITS.topK.max}, default ${TOOL_DEFAULTS.retrieveTopK}.` },
  },
  required: ['query'],
  additionalProperties: false,
} as const satisfies Schema;

export const SEMANTIC_SEARCH_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    vector_query: { ...query, description: 'Natural-language description of the meaning you are after.' },
    threshold: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: `Minimum similarity (0..1), default ${TOOL_DEFAULTS.semanticThreshold}.`,
    },
    top_k: topK,
  },
  required: ['vector_query'],
  additionalProperties: false,
} as const satisfies Schema;

export const ANSWER_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    question: query,
    top_k: { ...topK, description: `Passages retrieved for the answer (default ${TOOL_DEFAULTS.answerTopK}).` },
    folders: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: LIMITS.pathChars },
      maxItems: LIMITS.paths,
    },
  },
  required: ['question'],
  additionalProperties: false,
} as const satisfies Schema;

/** Loose objects (no `additionalProperties: false`): these results carry more than the fields an agent must find. */
export const JOB_RESULT_SCHEMA = {
  type: 'object',
  properties: {
    job_id: { type: 'string' },
    state: { type: 'string' },
    kind: { type: 'string' },
    folder: { type: 'string' },
    progress: { type: 'object' },
  },
  required: ['job_id', 'state', 'kind', 'folder'],
} as const satisfies Schema;

export const INDEX_STATUS_RESULT_SCHEMA = {
  type: 'object',
  properties: {
    folders: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          state: { type: 'string' },
          files: { type: 'number' },
          chunks: { type: 'number' },
          embedded_chunks: { type: 'number' },
          file_errors: { type: 'number' },
          updated_at: { type: ['string', 'null'] },
        },
        required: ['path', 'state', 'files', 'chunks', 'embedded_chunks', 'file_errors', 'updated_at'],
      },
    },
    jobs: { type: 'array', items: JOB_RESULT_SCHEMA },
  },
  required: ['folders', 'jobs'],
  additionalProperties: false,
} as const satisfies Schema;

export const INDEX_DROP_RESULT_SCHEMA = {
  type: 'object',
  properties: { dropped: { type: 'string' } },
  required: ['dropped'],
  additionalProperties: false,
} as const satisfies Schema;

export const SERVER_STATUS_RESULT_SCHEMA = {
  type: 'object',
  properties: {
    version: { type: 'string' },
    toolset: { type: 'string' },
    tools: { type: 'array', items: { type: 'string' } },
  },
  required: ['version', 'toolset', 'tools'],
} as const satisfies Schema;

export const ANSWER_RESULT_SCHEMA = {
  type: 'object',
  properties: {
    answer: { type: 'string' },
    citations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          n: { type: 'integer' },
          path: { type: 'string' },
          start_line: { type: 'integer' },
          end_line: { type: 'integer' },
        },
        required: ['n', 'path', 'start_line', 'end_line'],
      },
    },
    model: { type: 'string' },
  },
  required: ['answer', 'citations', 'model'],
} as const satisfies Schema;

export type IndexUpdateRequest = FromSchema<typeof INDEX_UPDATE_REQUEST_SCHEMA>;
export type IndexDropRequest = FromSchema<typeof INDEX_DROP_REQUEST_SCHEMA>;
export type RetrieveContextRequest = FromSchema<typeof RETRIEVE_CONTEXT_REQUEST_SCHEMA>;
export type SemanticSearchRequest = FromSchema<typeof SEMANTIC_SEARCH_REQUEST_SCHEMA>;
export type AnswerRequest = FromSchema<typeof ANSWER_REQUEST_SCHEMA>;
export type JobResult = FromSchema<typeof JOB_RESULT_SCHEMA>;
export type IndexStatusResult = FromSchema<typeof INDEX_STATUS_RESULT_SCHEMA>;
export type AnswerResult = FromSchema<typeof ANSWER_RESULT_SCHEMA>;

/** Checks a tool's arguments against its declared schema (null and undefined mean "not given", as everywhere). */
function check<S extends Schema>(schema: S, input: unknown, example: string): Parsed<FromSchema<S>> {
  const req = given(input ?? {});
  if (!req) return refuse('request', `the arguments must be an object such as ${example}`);
  const issue = checkSchema(schema, req, '');
  return issue ? { ok: false, issue } : { ok: true, value: req as FromSchema<S> };
}

export function parseEmptyRequest(input: unknown): Parsed<Record<string, never>> {
  return check(EMPTY_REQUEST_SCHEMA, input, '{}') as Parsed<Record<string, never>>;
}

export function parseIndexUpdateRequest(
  input: unknown,
): Parsed<IndexUpdateRequest & { kind: NonNullable<IndexUpdateRequest['kind']> }> {
  const r = check(INDEX_UPDATE_REQUEST_SCHEMA, input, '{"path": "/abs/folder"}');
  return r.ok ? { ok: true, value: { ...r.value, kind: r.value.kind ?? TOOL_DEFAULTS.indexKind } } : r;
}

export function parseIndexDropRequest(input: unknown): Parsed<IndexDropRequest> {
  return check(INDEX_DROP_REQUEST_SCHEMA, input, '{"path": "/abs/folder", "confirm": true}');
}

export function parseRetrieveContextRequest(input: unknown): Parsed<RetrieveContextRequest & { top_k: number }> {
  const r = check(RETRIEVE_CONTEXT_REQUEST_SCHEMA, input, '{"query": "…"}');
  return r.ok ? { ok: true, value: { ...r.value, top_k: r.value.top_k ?? TOOL_DEFAULTS.retrieveTopK } } : r;
}

export function parseSemanticSearchRequest(input: unknown): Parsed<SemanticSearchRequest & { threshold: number }> {
  const r = check(SEMANTIC_SEARCH_REQUEST_SCHEMA, input, '{"vector_query": "…"}');
  return r.ok
    ? { ok: true, value: { ...r.value, threshold: r.value.threshold ?? TOOL_DEFAULTS.semanticThreshold } }
    : r;
}

export function parseAnswerRequest(input: unknown): Parsed<AnswerRequest & { top_k: number }> {
  const r = check(ANSWER_REQUEST_SCHEMA, input, '{"question": "…"}');
  return r.ok ? { ok: true, value: { ...r.value, top_k: r.value.top_k ?? TOOL_DEFAULTS.answerTopK } } : r;
}
