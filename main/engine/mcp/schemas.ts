/**
 * The MCP tools' schemas. Search, read and grep take theirs from the one contract in main/common
 * (requests.ts, results.ts) unchanged: `contractSchema` wraps a contract schema for the SDK, which
 * takes zod, so that `tools/list` shows exactly the contract (flat, no `$ref`) and the handler
 * receives the arguments as sent, to check them with the contract's parse function: one
 * validator, one message, one error-detail key. The other tools' schemas are zod 4, which also
 * inlines everything. Output schemas describe both outcomes, `{result}` or `{error}`.
 */
import { z } from 'zod';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { Schema } from '../../common/json-schema.js';
import { GREP_REQUEST_SCHEMA, LIMITS, READ_REQUEST_SCHEMA, searchRequestSchema, type SearchDefaults } from '../../common/requests.js';
import { ERROR_BODY_SCHEMA, GREP_RESULT_SCHEMA, READ_RESULT_SCHEMA, SEARCH_RESULT_SCHEMA, outcomeSchema } from '../../common/results.js';

/**
 * A contract schema as the SDK takes a schema (Standard Schema with its JSON Schema): tools/list
 * shows the contract's schema itself, and every value passes through untouched, because the
 * handler checks it with the contract's parse function. Made once per schema and kept (see below).
 */
export function contractSchema(schema: Schema): StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>> {
  const json = () => schema as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: 'cairn',
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: json, output: json },
    },
  } as StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>>;
}

/** The error body for the zod-built tools' outputs; test/mcp/contract.test.ts checks it lists as ERROR_BODY_SCHEMA. */
export const errorBodySchema = z.object({
  code: z.enum(ERROR_BODY_SCHEMA.properties.code.enum),
  message: z.string(),
  remedy: z.string().optional(),
  details: z.looseObject({}).optional(),
});

/*
 * Tools take built object schemas, made once per process: given a raw shape the SDK builds a new
 * object on every registerTool, and zod compiles each new schema on its first parse, which a
 * stateless server (a new McpServer per request) would pay on every call.
 */

/** `{result}` on success, `{error}` on failure; both optional so one schema covers both. */
export function outcome<T extends z.ZodType>(result: T) {
  return z.object({ result: result.optional(), error: errorBodySchema.optional() });
}

// The other tools forward to search: their shared limits are the search contract's.
const topK = z.number().int().min(LIMITS.topK.min).max(LIMITS.topK.max);
const pathList = z.array(z.string().min(1).max(LIMITS.pathChars)).max(LIMITS.paths);

export const folderArg = { path: z.string().min(1).max(LIMITS.pathChars).describe('Absolute path of an indexed folder.') };

export const indexUpdateInput = {
  ...folderArg,
  kind: z.enum(['create', 'update', 'rebuild']).optional().describe('update (default): apply changes; rebuild: from scratch; create: a folder not yet indexed.'),
};

export const indexDropInput = {
  ...folderArg,
  confirm: z.literal(true).describe('Must be true: dropping deletes the folder\'s index (not its files).'),
};

export const jobResultSchema = z.looseObject({ job_id: z.string(), state: z.string(), kind: z.string(), folder: z.string() });

export const folderStatusSchema = z.looseObject({
  path: z.string(),
  state: z.string(),
  files: z.number(),
  chunks: z.number(),
  embedded_chunks: z.number(),
  file_errors: z.number(),
  updated_at: z.string().nullable(),
});

export const retrieveContextInput = {
  query: z.string().min(1).max(LIMITS.queryChars),
  filters: z
    .object({
      source: z.string().min(1).optional().describe('An indexed folder (absolute path) or a path glob within the folders.'),
      tags: z.array(z.string().min(1)).max(LIMITS.fileTypes).optional().describe('File extensions or kinds (md, ts, code, pdf).'),
    })
    .optional(),
  top_k: topK.optional().describe(`${LIMITS.topK.min}..${LIMITS.topK.max}, default 10.`),
};

export const semanticSearchInput = {
  vector_query: z.string().min(1).max(LIMITS.queryChars).describe('Natural-language description of the meaning you are after.'),
  threshold: z.number().min(0).max(1).optional().describe('Minimum similarity (0..1), default 0.7.'),
  top_k: topK.optional(),
};

export const answerInput = {
  question: z.string().min(1).max(4000),
  top_k: topK.optional().describe('Passages retrieved for the answer (default 8).'),
  folders: pathList.optional(),
};

export const answerResultSchema = z.looseObject({
  answer: z.string(),
  citations: z.array(z.looseObject({ n: z.number().int(), path: z.string(), start_line: z.number().int(), end_line: z.number().int() })),
  model: z.string(),
});

export const EMPTY_INPUT = z.object({});
export const HITS_OUTPUT = contractSchema(outcomeSchema(SEARCH_RESULT_SCHEMA));
export const READ_INPUT = contractSchema(READ_REQUEST_SCHEMA);
export const READ_OUTPUT = contractSchema(outcomeSchema(READ_RESULT_SCHEMA));
export const GREP_INPUT = contractSchema(GREP_REQUEST_SCHEMA);
export const GREP_OUTPUT = contractSchema(outcomeSchema(GREP_RESULT_SCHEMA));
export const INDEX_STATUS_OUTPUT = outcome(z.object({ folders: z.array(folderStatusSchema), jobs: z.array(jobResultSchema) }));
export const INDEX_UPDATE_INPUT = z.object(indexUpdateInput);
export const JOB_OUTPUT = outcome(jobResultSchema);
export const INDEX_DROP_INPUT = z.object(indexDropInput);
export const INDEX_DROP_OUTPUT = outcome(z.object({ dropped: z.string() }));
export const SERVER_STATUS_OUTPUT = outcome(z.looseObject({ version: z.string(), toolset: z.string(), tools: z.array(z.string()) }));
export const RETRIEVE_CONTEXT_INPUT = z.object(retrieveContextInput);
export const SEMANTIC_SEARCH_INPUT = z.object(semanticSearchInput);
export const ANSWER_INPUT = z.object(answerInput);
export const ANSWER_OUTPUT = outcome(answerResultSchema);

/** The search input schema lists the defaults the mount captured; one per pair of defaults, kept. */
const searchInputs = new Map<string, ReturnType<typeof contractSchema>>();
export function searchInput(defaults: SearchDefaults) {
  const key = `${defaults.mode}/${defaults.topK}`;
  let schema = searchInputs.get(key);
  if (!schema) searchInputs.set(key, (schema = contractSchema(searchRequestSchema(defaults))));
  return schema;
}
