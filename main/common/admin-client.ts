/**
 * The one typed admin API client, generated from the route table (admin-api.ts): a function per
 * route, taking the route's request and answering its response type, over whatever carries the
 * call. The workbench passes its fetch (same-origin, its reconnect logic, renderer/src/api/client.ts);
 * the CLI's remote client and the desktop shell pass `bearerCall` with the admin token. Plain
 * TypeScript with `fetch`: it runs in the browser, in Node and in Electron's main process.
 */
import { ADMIN_API, type AdminRequest, type AdminResponse, type AdminRoute, type AdminRouteName } from './admin-api.js';
import { answerErrorBody, isErrorEnvelope, parseAnswer, type ErrorBody } from './errors.js';

export interface CallOptions {
  signal?: AbortSignal;
  /** A non-2xx answer whose body is not an error envelope is returned as the value (the probe's result). */
  acceptErrorBody?: boolean;
}

/** Carries one admin call: JSON body in, parsed JSON out; throws on a failed answer. */
export type AdminCall = <T>(method: string, path: string, body?: unknown, opts?: CallOptions) => Promise<T>;

/** A route's call: no argument for a route that is sent nothing. */
export type AdminClientCall<K extends AdminRouteName> = [AdminRequest<K>] extends [void]
  ? (req?: undefined, opts?: { signal?: AbortSignal }) => Promise<AdminResponse<K>>
  : // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "every field optional"
    {} extends AdminRequest<K>
    ? (req?: AdminRequest<K>, opts?: { signal?: AbortSignal }) => Promise<AdminResponse<K>>
    : (req: AdminRequest<K>, opts?: { signal?: AbortSignal }) => Promise<AdminResponse<K>>;

export type AdminClient = { [K in AdminRouteName]: AdminClientCall<K> };

/** A query route's request as URL parameters (absent, null and empty values left out). */
export function queryString(req: unknown): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries((req ?? {}) as Record<string, unknown>))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  return q.toString();
}

function callOf(call: AdminCall, r: AdminRoute) {
  return (req?: unknown, opts: { signal?: AbortSignal } = {}) => {
    const query = r.input === 'query' ? queryString(req) : '';
    const body = r.input === 'body' ? (req ?? {}) : undefined;
    return call(r.method, query ? `${r.path}?${query}` : r.path, body, {
      signal: opts.signal,
      acceptErrorBody: r.failureIsResult === true,
    });
  };
}

export function adminClient(call: AdminCall): AdminClient {
  const out: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(ADMIN_API)) out[name] = callOf(call, r);
  return out as AdminClient;
}

/**
 * The call for a process that holds the admin token (the CLI, the desktop shell): `fail` turns a
 * failed answer's typed body into the caller's error, `unreachable` a connection that failed.
 */
export function bearerCall(
  base: string,
  token: string,
  errors: { fail: (status: number, body: ErrorBody) => Error; unreachable: (err: unknown) => Error },
): AdminCall {
  return async <T>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: opts.signal,
      });
    } catch (err) {
      throw errors.unreachable(err);
    }
    const parsed = parseAnswer(await res.text()) ?? null;
    if (!res.ok && !(opts.acceptErrorBody && parsed !== null && !isErrorEnvelope(parsed)))
      throw errors.fail(res.status, answerErrorBody(res.status, parsed, `${method} ${path}`));
    return parsed as T;
  };
}
