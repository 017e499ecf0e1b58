import { errorBodyOf, type ErrorBody, type ErrorCode } from '../common/errors.js';
import type { Parsed } from '../common/requests.js';

/** The one error type the engine throws across its boundary. */
export class CairnError extends Error {
  readonly code: ErrorCode;
  readonly remedy?: string;
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { remedy?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'CairnError';
    this.code = code;
    this.remedy = opts.remedy;
    this.details = opts.details;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message };
    if (this.remedy) body.remedy = this.remedy;
    if (this.details) body.details = this.details;
    return body;
  }
}

/** Any thrown value as a typed error body; unknown failures become `internal` (common/errors.ts). */
export const toErrorBody: (err: unknown) => ErrorBody = errorBodyOf;

/**
 * The value of a contract parse (common/requests.ts), or the typed `invalid_argument` it found:
 * the one shape of an argument error on every surface, `details.key` naming the argument.
 */
export function argumentsOf<T>(parsed: Parsed<T>): T {
  if (parsed.ok) return parsed.value;
  throw new CairnError('invalid_argument', parsed.issue.message, { details: { key: parsed.issue.key } });
}
