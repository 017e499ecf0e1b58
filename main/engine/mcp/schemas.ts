/**
 * The MCP tools' schemas, every one taken from the contracts in main/common (requests.ts,
 * results.ts, tool-requests.ts) unchanged: `contractSchema` wraps a contract schema for the SDK,
 * so that `tools/list` shows exactly the contract (flat, no `$ref`) and the handler receives the
 * arguments as sent, to check them with the contract's parse function: one validator, one
 * message, one error-detail key. Output schemas describe both outcomes, `{result}` or `{error}`.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { Schema } from '../../common/json-schema.js';
import {
  GREP_REQUEST_SCHEMA,
  READ_REQUEST_SCHEMA,
  searchRequestSchema,
  type SearchDefaults,
} from '../../common/requests.js';
import { GREP_RESULT_SCHEMA, READ_RESULT_SCHEMA, SEARCH_RESULT_SCHEMA, outcomeSchema } from '../../common/results.js';
import {
  ANSWER_REQUEST_SCHEMA,
  ANSWER_RESULT_SCHEMA,
  EMPTY_REQUEST_SCHEMA,
  INDEX_DROP_REQUEST_SCHEMA,
  INDEX_DROP_RESULT_SCHEMA,
  INDEX_STATUS_RESULT_SCHEMA,
  INDEX_UPDATE_REQUEST_SCHEMA,
  JOB_RESULT_SCHEMA,
  RETRIEVE_CONTEXT_REQUEST_SCHEMA,
  SEMANTIC_SEARCH_REQUEST_SCHEMA,
  SERVER_STATUS_RESULT_SCHEMA,
} from '../../common/tool-requests.js';

/**
 * A contract schema as the SDK takes a schema (Standard Schema with its JSON Schema): tools/list
 * shows the contract's schema itself, and every value passes through untouched, because the
 * handler checks it with the contract's parse function. Made once per schema and kept (see below).
 */
export function contractSchema(
  schema: Schema,
): StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>> {
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

/*
 * Each wrapped schema is made once per process and kept: a stateless server registers its tools
 * on every request, and the SDK converts a new schema object on its first use.
 */
export const EMPTY_INPUT = contractSchema(EMPTY_REQUEST_SCHEMA);
export const HITS_OUTPUT = contractSchema(outcomeSchema(SEARCH_RESULT_SCHEMA));
export const READ_INPUT = contractSchema(READ_REQUEST_SCHEMA);
export const READ_OUTPUT = contractSchema(outcomeSchema(READ_RESULT_SCHEMA));
export const GREP_INPUT = contractSchema(GREP_REQUEST_SCHEMA);
export const GREP_OUTPUT = contractSchema(outcomeSchema(GREP_RESULT_SCHEMA));
export const INDEX_STATUS_OUTPUT = contractSchema(outcomeSchema(INDEX_STATUS_RESULT_SCHEMA));
export const INDEX_UPDATE_INPUT = contractSchema(INDEX_UPDATE_REQUEST_SCHEMA);
export const JOB_OUTPUT = contractSchema(outcomeSchema(JOB_RESULT_SCHEMA));
export const INDEX_DROP_INPUT = contractSchema(INDEX_DROP_REQUEST_SCHEMA);
export const INDEX_DROP_OUTPUT = contractSchema(outcomeSchema(INDEX_DROP_RESULT_SCHEMA));
export const SERVER_STATUS_OUTPUT = contractSchema(outcomeSchema(SERVER_STATUS_RESULT_SCHEMA));
export const RETRIEVE_CONTEXT_INPUT = contractSchema(RETRIEVE_CONTEXT_REQUEST_SCHEMA);
export const SEMANTIC_SEARCH_INPUT = contractSchema(SEMANTIC_SEARCH_REQUEST_SCHEMA);
export const ANSWER_INPUT = contractSchema(ANSWER_REQUEST_SCHEMA);
export const ANSWER_OUTPUT = contractSchema(outcomeSchema(ANSWER_RESULT_SCHEMA));

/** The search input schema lists the defaults the mount captured; one per pair of defaults, kept. */
const searchInputs = new Map<string, ReturnType<typeof contractSchema>>();
export function searchInput(defaults: SearchDefaults) {
  const key = `${defaults.mode}/${defaults.topK}`;
  let schema = searchInputs.get(key);
  if (!schema) searchInputs.set(key, (schema = contractSchema(searchRequestSchema(defaults))));
  return schema;
}
