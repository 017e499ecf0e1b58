/**
 * Typed error codes shared by the engine, the MCP tools, the admin API and the workbench.
 * Every failure that crosses a boundary carries one of these codes, so callers can react
 * (re-index, fix an argument, start a dependency) without parsing messages.
 */
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

/** The wire shape of an error: `{ "error": { code, message, ... } }`. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** What a person or an agent can do about it, e.g. "re-index the folder". */
  remedy?: string;
  /** Extra machine-readable detail (the offending key, the expected contract...). */
  details?: Record<string, unknown>;
}

export interface ErrorEnvelope {
  error: ErrorBody;
}

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
