/**
 * Typed error codes shared by the engine, the MCP tools, the admin API and the workbench.
 * Every failure that crosses a boundary carries one of these codes, so callers can react
 * (re-index, fix an argument, start a dependency) without parsing messages.
 */
import type { FromSchema, Schema } from './json-schema.js';

export const ERROR_CODES = [
  'invalid_argument',
  'dependency_unavailable',
  'required_retrieval_leg_failed',
  'reranker_failed',
  'answer_retrieval_failed',
  'generation_unavailable',
  'embedding_contract_mismatch',
  'sparse_contract_mismatch',
  'path_outside_folders',
  'not_found',
  'config_invalid',
  'index_corrupt',
  'engine_locked',
  /** The disk holding the index is full: what was committed keeps serving; free space, then re-run. */
  'disk_full',
  'conflict',
  /** A request ran past its time budget (e.g. a grep pattern that backtracks without end): its work was stopped. */
  'timeout',
  'unauthorized',
  'forbidden',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The wire shape of an error: `{ "error": { code, message, ... } }`; its type is read from it. The
 * MCP tools list it in their output schemas unchanged, so it carries no descriptions.
 */
export const ERROR_BODY_SCHEMA = {
  type: 'object',
  properties: {
    code: { enum: ERROR_CODES },
    message: { type: 'string' },
    /** What a person or an agent can do about it, e.g. "re-index the folder". */
    remedy: { type: 'string' },
    /** Extra machine-readable detail (the offending key, the expected contract...). */
    details: { type: 'object' },
  },
  required: ['code', 'message'],
  additionalProperties: false,
} as const satisfies Schema;

export type ErrorBody = FromSchema<typeof ERROR_BODY_SCHEMA>;

/**
 * Every failed admin answer: one typed error, with the
 * HTTP status `httpStatusFor` gives its code. The admin contract tests judge refusals by it.
 */
export const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  properties: { error: ERROR_BODY_SCHEMA },
  required: ['error'],
  additionalProperties: false,
} as const satisfies Schema;

export type ErrorEnvelope = FromSchema<typeof ERROR_ENVELOPE_SCHEMA>;

/** HTTP status an error code maps to on the admin API. */
export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'invalid_argument':
    case 'config_invalid':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
    case 'path_outside_folders':
      return 403;
    case 'not_found':
      return 404;
    case 'embedding_contract_mismatch':
    case 'sparse_contract_mismatch':
    case 'conflict':
    case 'engine_locked':
      return 409;
    case 'dependency_unavailable':
    case 'required_retrieval_leg_failed':
    case 'reranker_failed':
    case 'answer_retrieval_failed':
    case 'generation_unavailable':
    case 'index_corrupt':
      return 503;
    case 'disk_full':
      return 507;
    case 'timeout':
      return 504;
    case 'internal':
      return 500;
  }
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const err = (value as { error: unknown }).error;
  return typeof err === 'object' && err !== null && typeof (err as ErrorBody).code === 'string';
}

/**
 * Any thrown value as a typed error body: the one translator every surface uses (MCP results, the
 * admin API, jobs, the CLI, the workbench). A value that carries its own body (`toBody()`: the
 * engine's CairnError, the admin client's errors) gives it; anything else is `internal`.
 */
export function errorBodyOf(err: unknown): ErrorBody {
  const own = (err as { toBody?: unknown } | null)?.toBody;
  if (typeof own === 'function') return (own as () => ErrorBody).call(err);
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/**
 * The error body of a failed admin HTTP answer: the engine's typed envelope when it sent one,
 * else a body named for the HTTP status (a proxy or an older engine answered).
 */
export function answerErrorBody(status: number, parsed: unknown, what: string): ErrorBody {
  if (isErrorEnvelope(parsed)) return parsed.error;
  const code: ErrorCode =
    status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status === 404 ? 'not_found' : 'internal';
  return { code, message: `${what} answered ${status}` };
}

/** An answer's text as JSON, or undefined when it is empty or not JSON (a proxy's HTML page). */
export function parseAnswer(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
