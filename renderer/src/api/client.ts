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
import { ENGINE_AWAY_HEADER, engineAwayOf, type EngineAway } from '../../../main/common/engine-away';
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
  /** The desktop shell's word on why there is no engine (starting, given up...); absent in a browser. */
  readonly away: EngineAway | null;
  constructor(message: string, away: EngineAway | null = null) {
    super(message);
    this.name = 'ConnectionError';
    this.away = away;
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
  const away = res.status === 503 ? engineAwayOf(res.headers.get(ENGINE_AWAY_HEADER), parsed) : null;
  if (away) throw new ConnectionError(`The desktop app has no engine running (${away.engine}).`, away);
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

/**
 * What a panel that loads on its own shows for a failed load: nothing for a lost engine (the
 * banner says it for the whole page, and the reconnect reloads every panel), else the error. One
 * box per panel saying the same "no engine" is noise, and in the desktop app, before the engine
 * ever answered, it would be the whole page.
 */
export function loadErrorOf(err: unknown): ErrorBody | null {
  return err instanceof ConnectionError ? null : describeError(err);
}
