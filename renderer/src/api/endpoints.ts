/** One typed function per admin route (main/common/admin.ts ADMIN_ROUTES). */
import type {
  AdminSearchRequest,
  AdminSearchResponse,
  ApiKeyResponse,
  ClientConfig,
  EngineStatus,
  FolderSpec,
  FolderStatus,
  JobActionRequest,
  JobInfo,
  McpStatus,
  ModelInfo,
  ProbeResult,
  SetPausedRequest,
  SetPausedResponse,
  SettingsResponse,
  ValidateResponse,
  ModelSwitchStatus,
  BrowseResponse,
  FolderFilesRequest,
  FolderFilesResponse,
  SettingSpec,
  UpdateFolderRequest,
  ReadRequest,
  ReadResult,
} from '../../../main/common/index';
import { ApiError, request } from './client';

export const api = {
  engineStatus: (signal?: AbortSignal) => request<EngineStatus>('GET', '/api/status', undefined, { signal }),
  mcpStatus: (signal?: AbortSignal) => request<McpStatus>('GET', '/api/mcp/status', undefined, { signal }),

  async probe(query: string): Promise<ProbeResult> {
    // A failed probe is a result (typed error + remedy), whatever HTTP status carries it.
    try {
      return await request<ProbeResult>('POST', '/api/mcp/probe', { query }, { acceptErrorBody: true });
    } catch (err) {
      if (err instanceof ApiError) return { ok: false, tools: [], latency_ms: 0, transport_url: '', error: err.body, era: null, protocol_version: null };
      throw err;
    }
  },
  restartMcp: () => request<unknown>('POST', '/api/mcp/restart', {}),

  settings: () => request<SettingsResponse>('GET', '/api/settings'),
  updateSettings: (values: Record<string, unknown>, confirm = false) => request<SettingsResponse>('PATCH', '/api/settings', confirm ? { values, confirm } : { values }),
  /** The settings table the editor is generated from (main/common/settings.ts). */
  settingsSpec: async () => (await request<{ settings: SettingSpec[] }>('GET', '/api/settings/spec')).settings,
  validateSettings: (values: Record<string, unknown>) => request<ValidateResponse>('POST', '/api/settings/validate', { values }),

  apiKey: (reveal = false) => request<ApiKeyResponse>('GET', `/api/mcp/api-key${reveal ? '?reveal=1' : ''}`),
  /** `generate` when none is set (the engine refuses to overwrite), `rotate` to replace one. */
  newApiKey: (action: 'generate' | 'rotate') => request<ApiKeyResponse>('POST', '/api/mcp/api-key', { action }),

  addFolder: (spec: FolderSpec) => request<FolderStatus>('POST', '/api/folders', spec),
  removeFolder: (path: string) => request<unknown>('DELETE', '/api/folders', { path }),
  updateFolder: (body: UpdateFolderRequest) => request<FolderStatus>('PATCH', '/api/folders', body),
  folderFiles(req: FolderFilesRequest, signal?: AbortSignal) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(req)) if (v !== undefined && v !== '') q.set(k, String(v));
    return request<FolderFilesResponse>('GET', `/api/folders/files?${q.toString()}`, undefined, { signal });
  },
  /** Directories below the home folder (the browser's folder picker); no path: the home folder. */
  browse: (path?: string) => request<BrowseResponse>('GET', `/api/browse${path ? `?path=${encodeURIComponent(path)}` : ''}`),
  indexFolder: (path: string, kind: 'update' | 'rebuild') => request<JobInfo>('POST', '/api/folders/index', { path, kind }),
  jobAction: (body: JobActionRequest) => request<JobInfo>('POST', '/api/jobs/action', body),
  setPaused: (paused: boolean) => request<SetPausedResponse>('POST', '/api/jobs/paused', { paused } satisfies SetPausedRequest),

  models: () => request<ModelInfo[]>('GET', '/api/models'),
  loadModel: () => request<EngineStatus['model']>('POST', '/api/model/load', {}),
  switchModel: (model: string) => request<ModelSwitchStatus>('POST', '/api/model/switch', { model }),
  search: (req: AdminSearchRequest) => request<AdminSearchResponse>('POST', '/api/search', req),
  read: (req: ReadRequest) => request<ReadResult>('POST', '/api/read', req),

  /** Snippets carry a key placeholder unless `reveal` (then the real key, for copying). */
  async clients(reveal = false): Promise<ClientConfig[]> {
    // Accept a bare list or `{ clients: [...] }`: the contract names the item type only.
    const body = await request<ClientConfig[] | { clients: ClientConfig[] }>('GET', `/api/clients${reveal ? '?reveal=1' : ''}`);
    return Array.isArray(body) ? body : body.clients;
  },
  /** `confirm: true` is the engine's guard that a person agreed to have a config file rewritten. */
  installClient: (id: ClientConfig['id']) => request<Record<string, unknown>>('POST', '/api/clients/install', { id, confirm: true }),
};
