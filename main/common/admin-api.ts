/**
 * The admin API (under `/api`) declared once: per route its method and path, where its request
 * travels (none, a JSON body, URL query parameters), the request's schema where the router
 * checks one, the success status, and the request and answer types. The engine's router
 * (engine/admin/router.ts) dispatches, checks and answers from this table, its handlers are typed
 * by it, and the one admin client (admin-client.ts) is generated from it: a route added here is
 * a typed client call and a compile error until it has a handler.
 */
import type { FromSchema, Schema } from './json-schema.js';
import { LIMITS, type ReadRequest, type SearchRequest } from './requests.js';
import { READ_RESPONSE_SCHEMA, SEARCH_RESPONSE_SCHEMA, type ReadResult, type SearchResponse } from './search.js';
import type { FolderSpec, SettingSpec } from './settings.js';
import type { FolderFilesRequest, FolderFilesResponse } from './files.js';
import type { BrowseResponse } from './browse.js';
import {
  PROBE_ERAS,
  type EngineStatus,
  type FolderStatus,
  type JobInfo,
  type McpStatus,
  type ModelInfo,
  type ModelSwitchStatus,
  type ProbeResult,
} from './status.js';
import {
  API_KEY_RESPONSE_SCHEMA,
  INSTALL_RESULT_SCHEMA,
  SET_PAUSED_RESPONSE_SCHEMA,
  SETTINGS_RESPONSE_SCHEMA,
  VALIDATE_RESPONSE_SCHEMA,
  type ApiKeyResponse,
  type ClientConfig,
  type InstallResult,
  type SettingsResponse,
  type SetPausedResponse,
  type UpdateFolderRequest,
  type ValidateResponse,
} from './admin.js';

export type AdminMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface AdminRoute {
  method: AdminMethod;
  path: string;
  /** `body`: a JSON object; `query`: URL query parameters (string values); `none`: nothing is read. */
  input: 'none' | 'body' | 'query';
  /** Checked by the router before the handler runs (one validator and message, json-schema.ts). */
  request?: Schema;
  /** The declared schema of a success, where the answer has one (contract tests judge by it). */
  response?: Schema;
  /** Status of a success. */
  status: 200 | 201 | 202;
  /** A failed answer that is not an error envelope is the result (the probe reports failures so). */
  failureIsResult?: true;
}

/** The route's request and answer types ride on the declaration (a phantom: never a value). */
interface Typed<Req, Res> {
  readonly types?: { req: Req; res: Res };
}

function route<Req = void, Res = unknown>() {
  return <const R extends AdminRoute>(r: R): R & Typed<Req, Res> => r;
}

const nonEmpty = { type: 'string', minLength: 1 } as const;
const path = { ...nonEmpty, maxLength: LIMITS.pathChars } as const;
/** Loose objects: a body may carry more than the fields the route checks (the folder spec's options). */
const pathBody = { type: 'object', properties: { path }, required: ['path'] } as const satisfies Schema;
const reveal = { type: 'object', properties: { reveal: { type: 'string' } } } as const satisfies Schema;
const settingsPatch = {
  type: 'object',
  properties: {
    values: { type: 'object', description: 'Setting key to new value (main/common/settings.ts).' },
    confirm: { type: 'boolean', description: 'The person agreed to the issues that need a confirmation.' },
  },
  required: ['values'],
} as const satisfies Schema;

const REQUESTS = {
  updateFolder: {
    type: 'object',
    properties: { path, text_only: { type: 'boolean' } },
    required: ['path'],
  },
  indexFolder: {
    type: 'object',
    properties: { path, kind: { enum: ['update', 'rebuild', 'create'] } },
    required: ['path'],
  },
  jobAction: {
    type: 'object',
    properties: { id: nonEmpty, action: { enum: ['pause', 'resume', 'cancel'] } },
    required: ['id', 'action'],
  },
  setPaused: { type: 'object', properties: { paused: { type: 'boolean' } }, required: ['paused'] },
  switchModel: { type: 'object', properties: { model: nonEmpty }, required: ['model'] },
  probe: { type: 'object', properties: { query: nonEmpty, era: { enum: PROBE_ERAS } }, required: ['query'] },
  apiKeyAction: {
    type: 'object',
    properties: { action: { enum: ['generate', 'rotate', 'set'] }, key: { type: 'string' } },
    required: ['action'],
  },
  installClient: {
    type: 'object',
    // `confirm` is checked by its handler, whose refusal says why it is needed.
    properties: { id: nonEmpty, confirm: { type: 'boolean' } },
    required: ['id'],
  },
  browse: { type: 'object', properties: { path: { type: 'string' } } },
  folderFiles: {
    type: 'object',
    properties: { path: { type: 'string' }, show: { type: 'string' }, q: { type: 'string' } },
  },
} as const satisfies Record<string, Schema>;

export const ADMIN_API = {
  engineStatus: route<void, EngineStatus>()({ method: 'GET', path: '/api/status', input: 'none', status: 200 }),
  mcpStatus: route<void, McpStatus>()({ method: 'GET', path: '/api/mcp/status', input: 'none', status: 200 }),
  /** A failed probe is a result (typed error + remedy), whatever HTTP status carries it. */
  probe: route<FromSchema<typeof REQUESTS.probe>, ProbeResult>()({
    method: 'POST',
    path: '/api/mcp/probe',
    input: 'body',
    request: REQUESTS.probe,
    status: 200,
    failureIsResult: true,
  }),
  /** Remounts MCP with the current settings; answers the new MCP status. */
  restartMcp: route<void, McpStatus>()({ method: 'POST', path: '/api/mcp/restart', input: 'none', status: 200 }),
  settings: route<void, SettingsResponse>()({
    method: 'GET',
    path: '/api/settings',
    input: 'none',
    response: SETTINGS_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** `confirm` is the lockout guard's answer for a new address or port (the person agreed). */
  updateSettings: route<FromSchema<typeof settingsPatch>, SettingsResponse>()({
    method: 'PATCH',
    path: '/api/settings',
    input: 'body',
    request: settingsPatch,
    response: SETTINGS_RESPONSE_SCHEMA,
    status: 200,
  }),
  validateSettings: route<FromSchema<typeof settingsPatch>, ValidateResponse>()({
    method: 'POST',
    path: '/api/settings/validate',
    input: 'body',
    request: settingsPatch,
    response: VALIDATE_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** The settings table (key, default, rule, meaning, when it applies) the settings editor is built from. */
  settingsSpec: route<void, { settings: readonly SettingSpec[] }>()({
    method: 'GET',
    path: '/api/settings/spec',
    input: 'none',
    status: 200,
  }),
  /** The key itself only with `reveal: '1'`. */
  apiKey: route<FromSchema<typeof reveal>, ApiKeyResponse>()({
    method: 'GET',
    path: '/api/mcp/api-key',
    input: 'query',
    request: reveal,
    response: API_KEY_RESPONSE_SCHEMA,
    status: 200,
  }),
  /**
   * `generate` (none set yet) and `rotate` make a new random key and return it once; `set` stores a
   * key of the caller's (at least API_KEY_MIN_LENGTH URL-safe characters, see api-key.ts).
   */
  rotateApiKey: route<FromSchema<typeof REQUESTS.apiKeyAction>, ApiKeyResponse>()({
    method: 'POST',
    path: '/api/mcp/api-key',
    input: 'body',
    request: REQUESTS.apiKeyAction,
    response: API_KEY_RESPONSE_SCHEMA,
    status: 200,
  }),
  folders: route<void, FolderStatus[]>()({ method: 'GET', path: '/api/folders', input: 'none', status: 200 }),
  addFolder: route<FolderSpec, FolderStatus>()({
    method: 'POST',
    path: '/api/folders',
    input: 'body',
    request: pathBody,
    status: 201,
  }),
  removeFolder: route<{ path: string }, { removed: string }>()({
    method: 'DELETE',
    path: '/api/folders',
    input: 'body',
    request: pathBody,
    status: 200,
  }),
  /** A folder's options that need no re-add (text_only). */
  updateFolder: route<UpdateFolderRequest, FolderStatus>()({
    method: 'PATCH',
    path: '/api/folders',
    input: 'body',
    request: REQUESTS.updateFolder,
    status: 200,
  }),
  /** One folder's files, paged: indexed, waiting for vectors, errors, skipped and why (the engine checks the values). */
  folderFiles: route<FolderFilesRequest, FolderFilesResponse>()({
    method: 'GET',
    path: '/api/folders/files',
    input: 'query',
    request: REQUESTS.folderFiles,
    status: 200,
  }),
  /** Directories below the home folder, for the headless workbench's folder browser (no path: the home folder). */
  browse: route<FromSchema<typeof REQUESTS.browse>, BrowseResponse>()({
    method: 'GET',
    path: '/api/browse',
    input: 'query',
    request: REQUESTS.browse,
    status: 200,
  }),
  /** `create`: the first index of a folder just added (the CLI's `cairn index` of a new folder). */
  indexFolder: route<FromSchema<typeof REQUESTS.indexFolder>, JobInfo>()({
    method: 'POST',
    path: '/api/folders/index',
    input: 'body',
    request: REQUESTS.indexFolder,
    status: 202,
  }),
  jobs: route<void, JobInfo[]>()({ method: 'GET', path: '/api/jobs', input: 'none', status: 200 }),
  jobAction: route<FromSchema<typeof REQUESTS.jobAction>, JobInfo>()({
    method: 'POST',
    path: '/api/jobs/action',
    input: 'body',
    request: REQUESTS.jobAction,
    status: 200,
  }),
  /** Engine-wide pause/resume of indexing (the tray's and the index panel's switch): pausing holds every job at its next checkpoint and every job queued later, until resumed. */
  setPaused: route<FromSchema<typeof REQUESTS.setPaused>, SetPausedResponse>()({
    method: 'POST',
    path: '/api/jobs/paused',
    input: 'body',
    request: REQUESTS.setPaused,
    response: SET_PAUSED_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** The models Cairn knows, and whether each is on this computer. */
  models: route<void, ModelInfo[]>()({ method: 'GET', path: '/api/models', input: 'none', status: 200 }),
  /** Loads the configured embedding model now (a hub model downloads; status shows the bytes). */
  loadModel: route<void, EngineStatus['model']>()({
    method: 'POST',
    path: '/api/model/load',
    input: 'none',
    status: 202,
  }),
  /** Downloads and checks a model, then makes it the configured one (status: model_switch). */
  switchModel: route<FromSchema<typeof REQUESTS.switchModel>, ModelSwitchStatus>()({
    method: 'POST',
    path: '/api/model/switch',
    input: 'body',
    request: REQUESTS.switchModel,
    status: 202,
  }),
  /** Checked by the search contract itself (SEARCH_REQUEST_SCHEMA, with the mounted server's defaults). */
  search: route<SearchRequest, SearchResponse>()({
    method: 'POST',
    path: '/api/search',
    input: 'body',
    response: SEARCH_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** Lines of an indexed file, by the MCP read tool's contract (the browser workbench's viewer). */
  read: route<ReadRequest, ReadResult>()({
    method: 'POST',
    path: '/api/read',
    input: 'body',
    response: READ_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** Snippets carry a key placeholder unless `reveal: '1'` (then the real key, for copying). */
  clients: route<FromSchema<typeof reveal>, ClientConfig[]>()({
    method: 'GET',
    path: '/api/clients',
    input: 'query',
    request: reveal,
    status: 200,
  }),
  /** `confirm: true` is the engine's guard that a person agreed to have a config file rewritten. */
  installClient: route<FromSchema<typeof REQUESTS.installClient>, InstallResult>()({
    method: 'POST',
    path: '/api/clients/install',
    input: 'body',
    request: REQUESTS.installClient,
    response: INSTALL_RESULT_SCHEMA,
    status: 200,
  }),
} as const;

export type AdminRouteName = keyof typeof ADMIN_API;
type TypesOf<K extends AdminRouteName> = NonNullable<(typeof ADMIN_API)[K]['types']>;
/** What a route is sent (`void`: nothing). */
export type AdminRequest<K extends AdminRouteName> = TypesOf<K>['req'];
/** What a route answers on success. */
export type AdminResponse<K extends AdminRouteName> = TypesOf<K>['res'];
