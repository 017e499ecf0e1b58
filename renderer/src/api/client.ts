/**
 * The admin API client: fetch with the bearer token, JSON in and out, and two kinds of failure the
 * UI treats differently: `ApiError` (the engine answered with a typed error) and
 * `ConnectionError` (no answer: the engine is down or restarting, so the UI shows the reconnect
 * banner instead of a per-panel error).
 */
import {
  answerErrorBody,
  errorBodyOf,
  isErrorEnvelope,
  parseAnswer,
  type ErrorBody,
} from '../../../main/common/errors';
import { resolveConnection, type Connection } from './auth';

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  toBody(): ErrorBody {
    return this.body;
  }
}

export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }

  toBody(): ErrorBody {
    return {
      code: 'dependency_unavailable',
      message: this.message,
      remedy: 'Wait for the engine to restart, or start it with `npm start`.',
    };
  }
}

let connection: Promise<Connection> | null = null;

function conn(): Promise<Connection> {
  connection ??= resolveConnection();
  return connection;
}

/** Forget the cached address, e.g. after the desktop shell restarted the engine on a new port. */
export function resetConnection(): void {
  connection = null;
}

export interface RequestOptions {
  /** Return the parsed body even on a non-2xx status (the probe reports failures as results). */
  acceptErrorBody?: boolean;
  signal?: AbortSignal;
}

export async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const { baseUrl, token } = await conn();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: opts.signal,
      cache: 'no-store',
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    resetConnection();
    throw new ConnectionError(`The engine did not answer (${(err as Error).message}).`);
  }
  const text = await res.text();
  const parsed = parseAnswer(text);
  if (res.ok) return parsed as T;
  if (opts.acceptErrorBody && parsed !== undefined && !isErrorEnvelope(parsed)) return parsed as T;
  if (isErrorEnvelope(parsed)) throw new ApiError(res.status, parsed.error);
  if (res.status === 502 || res.status === 503 || res.status === 504) {
    if (parsed === undefined) throw new ConnectionError(`The engine answered ${res.status}.`);
  }
  const failed = answerErrorBody(res.status, parsed, `${method} ${path}`);
  throw new ApiError(res.status, text ? { ...failed, message: `${failed.message}: ${text.slice(0, 200)}` } : failed);
}

/** A message for any thrown value, for panels' error states. */
export const describeError: (err: unknown) => ErrorBody = errorBodyOf;
