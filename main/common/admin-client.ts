/**
 * The one typed admin API client: a function per route of ADMIN_ROUTES, over whatever carries the
 * call. The workbench passes its fetch (same-origin, its reconnect logic, renderer/src/api/client.ts);
 * the CLI's remote client and the desktop shell pass `bearerCall` with the admin token. Plain
 * TypeScript with `fetch`: it runs in the browser, in Node and in Electron's main process.
 */
import { ADMIN_ROUTES } from './admin.js';
import type {
  AdminSearchRequest,
  AdminSearchResponse,
  ApiKeyResponse,
  ClientConfig,
  IndexFolderRequest,
  JobActionRequest,
  SetPausedRequest,
  SetPausedResponse,
  SettingsResponse,
  UpdateFolderRequest,
  ValidateResponse,
} from './admin.js';
import type { BrowseResponse } from './browse.js';
import type { FolderFilesRequest, FolderFilesResponse } from './files.js';
import type { ReadRequest } from './requests.js';
import type { ReadResult } from './search.js';
import { answerErrorBody, isErrorEnvelope, parseAnswer, type ErrorBody } from './errors.js';
import type { FolderSpec, SettingSpec } from './settings.js';
import type {
  EngineStatus,
  FolderStatus,
  JobInfo,
  McpStatus,
  ModelInfo,
  ModelSwitchStatus,
  ProbeResult,
} from './status.js';

export interface CallOptions {
  signal?: AbortSignal;
  /** A non-2xx answer whose body is not an error envelope is returned as the value (the probe's result). */
  acceptErrorBody?: boolean;
}

/** Carries one admin call: JSON body in, parsed JSON out; throws on a failed answer. */
export type AdminCall = <T>(method: string, path: string, body?: unknown, opts?: CallOptions) => Promise<T>;

type Route = keyof typeof ADMIN_ROUTES;

function split(route: Route): [string, string] {
  const [method, path] = ADMIN_ROUTES[route].split(' ');
  return [method, path];
}

export function adminClient(call: AdminCall) {
  const at = <T>(route: Route, body?: unknown, opts?: CallOptions & { query?: string }) => {
    const [method, path] = split(route);
    return call<T>(method, opts?.query ? `${path}?${opts.query}` : path, body, opts);
  };
  return {
    engineStatus: (signal?: AbortSignal) => at<EngineStatus>('engineStatus', undefined, { signal }),
    mcpStatus: (signal?: AbortSignal) => at<McpStatus>('mcpStatus', undefined, { signal }),
    /** A failed probe is a result (typed error + remedy), whatever HTTP status carries it. */
    probe: (query: string) => at<ProbeResult>('probe', { query }, { acceptErrorBody: true }),
    restartMcp: () => at<unknown>('restart', {}),

    settings: () => at<SettingsResponse>('settings'),
    /** `confirm` is the lockout guard's answer for a new address or port (the person agreed). */
    updateSettings: (values: Record<string, unknown>, confirm = false) =>
      at<SettingsResponse>('updateSettings', confirm ? { values, confirm } : { values }),
    /** The settings table the editor is generated from (main/common/settings.ts). */
    settingsSpec: async () => (await at<{ settings: SettingSpec[] }>('settingsSpec')).settings,
    validateSettings: (values: Record<string, unknown>) => at<ValidateResponse>('validateSettings', { values }),

    apiKey: (reveal = false) => at<ApiKeyResponse>('apiKey', undefined, { query: reveal ? 'reveal=1' : undefined }),
    /** `generate` when none is set (the engine refuses to overwrite), `rotate` to replace one. */
    newApiKey: (action: 'generate' | 'rotate') => at<ApiKeyResponse>('rotateApiKey', { action }),

    addFolder: (spec: FolderSpec) => at<FolderStatus>('addFolder', spec),
    removeFolder: (path: string) => at<unknown>('removeFolder', { path }),
    updateFolder: (body: UpdateFolderRequest) => at<FolderStatus>('updateFolder', body),
    folderFiles: (req: FolderFilesRequest, signal?: AbortSignal) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(req)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
      return at<FolderFilesResponse>('folderFiles', undefined, { signal, query: q.toString() });
    },
    /** Directories below the home folder (the browser's folder picker); no path: the home folder. */
    browse: (path?: string) =>
      at<BrowseResponse>('browse', undefined, { query: path ? `path=${encodeURIComponent(path)}` : undefined }),
    indexFolder: (path: string, kind: IndexFolderRequest['kind']) => at<JobInfo>('indexFolder', { path, kind }),
    /** A bare list or `{ jobs: [...] }`: the contract names the item type only. */
    jobs: async (): Promise<JobInfo[]> => {
      const body = await at<JobInfo[] | { jobs: JobInfo[] }>('jobs');
      return Array.isArray(body) ? body : body.jobs;
    },
    jobAction: (body: JobActionRequest) => at<JobInfo>('jobAction', body),
    setPaused: (paused: boolean) => at<SetPausedResponse>('setPaused', { paused } satisfies SetPausedRequest),

    models: () => at<ModelInfo[]>('models'),
    loadModel: () => at<EngineStatus['model']>('loadModel', {}),
    switchModel: (model: string) => at<ModelSwitchStatus>('switchModel', { model }),
    search: (req: AdminSearchRequest) => at<AdminSearchResponse>('search', req),
    read: (req: ReadRequest) => at<ReadResult>('read', req),

    /** Snippets carry a key placeholder unless `reveal` (then the real key, for copying). */
    clients: async (reveal = false): Promise<ClientConfig[]> => {
      const body = await at<ClientConfig[] | { clients: ClientConfig[] }>('clients', undefined, {
        query: reveal ? 'reveal=1' : undefined,
      });
      return Array.isArray(body) ? body : body.clients;
    },
    /** `confirm: true` is the engine's guard that a person agreed to have a config file rewritten. */
    installClient: (id: ClientConfig['id']) => at<Record<string, unknown>>('installClient', { id, confirm: true }),
  };
}

export type AdminClient = ReturnType<typeof adminClient>;

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
