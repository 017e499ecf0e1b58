/**
 * The admin API (under `/api`) declared once: per route its method and path, where its request
 * travels (none, a JSON body, URL query parameters), the request's schema, the answer's schema,
 * and the success status; a failure is an ERROR_ENVELOPE_SCHEMA answer (errors.ts) with its code's
 * status. Requests are exact: a field or parameter a schema does not declare is refused
 * (`invalid_argument`, `details.key` naming it), and a route sent nothing refuses anything sent.
 * The request and answer types are read from the schemas. The engine's router
 * (engine/admin/router.ts) dispatches, reads and checks from this table, its handlers are typed by
 * it, the contract tests judge every real answer and refusal by it, and the one admin client
 * (admin-client.ts) is generated from it: a route added here is a typed client call and a
 * compile error until it has a handler.
 */
import type { FromSchema, Schema } from './json-schema.js';
import { checkSearchRequest, READ_REQUEST_SCHEMA, SEARCH_REQUEST_SCHEMA, type Parsed } from './requests.js';
import { READ_RESPONSE_SCHEMA, SEARCH_RESPONSE_SCHEMA } from './search.js';
import { FOLDER_SPEC_SCHEMA, SETTING_SPEC_SCHEMA } from './settings.js';
import { FOLDER_FILES_REQUEST_SCHEMA, FOLDER_FILES_RESPONSE_SCHEMA } from './files.js';
import { BROWSE_REQUEST_SCHEMA, BROWSE_RESPONSE_SCHEMA } from './browse.js';
import { INDEX_UPDATE_REQUEST_SCHEMA } from './tool-requests.js';
import {
  ENGINE_STATUS_SCHEMA,
  FOLDER_STATUS_SCHEMA,
  JOB_INFO_SCHEMA,
  MCP_STATUS_SCHEMA,
  MODEL_INFO_SCHEMA,
  MODEL_STATUS_SCHEMA,
  MODEL_SWITCH_SCHEMA,
  PROBE_ERAS,
  PROBE_RESULT_SCHEMA,
} from './status.js';
import {
  API_KEY_RESPONSE_SCHEMA,
  CLIENT_CONFIG_SCHEMA,
  INSTALL_RESULT_SCHEMA,
  REMOVE_FOLDER_RESPONSE_SCHEMA,
  SET_PAUSED_RESPONSE_SCHEMA,
  SETTINGS_RESPONSE_SCHEMA,
  UPDATE_FOLDER_REQUEST_SCHEMA,
  VALIDATE_RESPONSE_SCHEMA,
} from './admin.js';

export type AdminMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface RouteBase {
  method: AdminMethod;
  path: string;
  /** The schema of a success's answer (its type is read from it; contract tests judge by it). */
  response: Schema;
  /** Status of a success. */
  status: 200 | 201 | 202;
  /** A failed answer that is not an error envelope is the result (the probe reports failures so). */
  failureIsResult?: true;
}

/** A route sent nothing: any query parameter or body field is refused. */
interface NoInputRoute extends RouteBase {
  input: 'none';
  request?: never;
  check?: never;
}

interface InputRoute extends RouteBase {
  /**
   * `body`: a JSON object; `query`: URL query parameters, read as the request schema's types
   * (json-schema.ts fromQuery: "5" is 5, `1`/`true` a boolean).
   */
  input: 'body' | 'query';
  /** Checked by the router before the handler runs (one validator and message, json-schema.ts). */
  request: Schema;
  /**
   * A contract whose own check does more than its schema says (search: `.MD` is `md`, a query or
   * queries) checks the request instead; the handler is handed what it answers.
   */
  check?: (input: unknown) => Parsed<unknown>;
}

export type AdminRoute = NoInputRoute | InputRoute;

/** The route's request and answer types ride on the declaration (a phantom: never a value). */
type Declared<R extends AdminRoute, Req> = R & { readonly types?: { req: Req; res: FromSchema<R['response']> } };

/** A route whose request is what its schema says, or nothing without one. */
function route<const R extends AdminRoute>(r: R): Declared<R, R extends { request: infer S } ? FromSchema<S> : void> {
  return r;
}

const nonEmpty = { type: 'string', minLength: 1 } as const;
const path = FOLDER_SPEC_SCHEMA.properties.path;
/** Every request is exact: an unknown field or parameter is refused, not ignored. */
const pathBody = {
  type: 'object',
  properties: { path },
  required: ['path'],
  additionalProperties: false,
} as const satisfies Schema;
const reveal = {
  type: 'object',
  properties: { reveal: { type: 'boolean', description: '`1` or `true`: the real key rather than a placeholder.' } },
  additionalProperties: false,
} as const satisfies Schema;
const settingsPatch = {
  type: 'object',
  properties: {
    values: { type: 'object', description: 'Setting key to new value (main/common/settings.ts).' },
    confirm: { type: 'boolean', description: 'The person agreed to the issues that need a confirmation.' },
  },
  required: ['values'],
  additionalProperties: false,
} as const satisfies Schema;
const listOf = <const S extends Schema>(items: S) => ({ type: 'array', items }) as const;

const REQUESTS = {
  jobAction: {
    type: 'object',
    properties: { id: nonEmpty, action: { enum: ['pause', 'resume', 'cancel'] } },
    required: ['id', 'action'],
    additionalProperties: false,
  },
  setPaused: {
    type: 'object',
    properties: { paused: { type: 'boolean' } },
    required: ['paused'],
    additionalProperties: false,
  },
  switchModel: { type: 'object', properties: { model: nonEmpty }, required: ['model'], additionalProperties: false },
  probe: {
    type: 'object',
    properties: { query: nonEmpty, era: { enum: PROBE_ERAS } },
    required: ['query'],
    additionalProperties: false,
  },
  apiKeyAction: {
    type: 'object',
    properties: { action: { enum: ['generate', 'rotate', 'set'] }, key: { type: 'string' } },
    required: ['action'],
    additionalProperties: false,
  },
  installClient: {
    type: 'object',
    // `confirm` is checked by its handler, whose refusal says why it is needed.
    properties: { id: nonEmpty, confirm: { type: 'boolean' } },
    required: ['id'],
    additionalProperties: false,
  },
} as const satisfies Record<string, Schema>;

export const ADMIN_API = {
  engineStatus: route({
    method: 'GET',
    path: '/api/status',
    input: 'none',
    response: ENGINE_STATUS_SCHEMA,
    status: 200,
  }),
  mcpStatus: route({ method: 'GET', path: '/api/mcp/status', input: 'none', response: MCP_STATUS_SCHEMA, status: 200 }),
  /** A failed probe is a result (typed error + remedy), whatever HTTP status carries it. */
  probe: route({
    method: 'POST',
    path: '/api/mcp/probe',
    input: 'body',
    request: REQUESTS.probe,
    response: PROBE_RESULT_SCHEMA,
    status: 200,
    failureIsResult: true,
  }),
  /** Remounts MCP with the current settings; answers the new MCP status. */
  restartMcp: route({
    method: 'POST',
    path: '/api/mcp/restart',
    input: 'none',
    response: MCP_STATUS_SCHEMA,
    status: 200,
  }),
  settings: route({
    method: 'GET',
    path: '/api/settings',
    input: 'none',
    response: SETTINGS_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** `confirm` is the lockout guard's answer for a new address or port (the person agreed). */
  updateSettings: route({
    method: 'PATCH',
    path: '/api/settings',
    input: 'body',
    request: settingsPatch,
    response: SETTINGS_RESPONSE_SCHEMA,
    status: 200,
  }),
  validateSettings: route({
    method: 'POST',
    path: '/api/settings/validate',
    input: 'body',
    request: settingsPatch,
    response: VALIDATE_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** The settings table (key, default, rule, meaning, when it applies) the settings editor is built from. */
  settingsSpec: route({
    method: 'GET',
    path: '/api/settings/spec',
    input: 'none',
    response: {
      type: 'object',
      properties: { settings: listOf(SETTING_SPEC_SCHEMA) },
      required: ['settings'],
      additionalProperties: false,
    },
    status: 200,
  }),
  /** The key itself only with `reveal=1`. */
  apiKey: route({
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
  rotateApiKey: route({
    method: 'POST',
    path: '/api/mcp/api-key',
    input: 'body',
    request: REQUESTS.apiKeyAction,
    response: API_KEY_RESPONSE_SCHEMA,
    status: 200,
  }),
  folders: route({
    method: 'GET',
    path: '/api/folders',
    input: 'none',
    response: listOf(FOLDER_STATUS_SCHEMA),
    status: 200,
  }),
  addFolder: route({
    method: 'POST',
    path: '/api/folders',
    input: 'body',
    request: FOLDER_SPEC_SCHEMA,
    response: FOLDER_STATUS_SCHEMA,
    status: 201,
  }),
  removeFolder: route({
    method: 'DELETE',
    path: '/api/folders',
    input: 'body',
    request: pathBody,
    response: REMOVE_FOLDER_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** A folder's options that need no re-add (text_only). */
  updateFolder: route({
    method: 'PATCH',
    path: '/api/folders',
    input: 'body',
    request: UPDATE_FOLDER_REQUEST_SCHEMA,
    response: FOLDER_STATUS_SCHEMA,
    status: 200,
  }),
  /** One folder's files, paged: indexed, waiting for vectors, errors, skipped and why. */
  folderFiles: route({
    method: 'GET',
    path: '/api/folders/files',
    input: 'query',
    request: FOLDER_FILES_REQUEST_SCHEMA,
    response: FOLDER_FILES_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** Directories below the home folder, for the headless workbench's folder browser (no path: the home folder). */
  browse: route({
    method: 'GET',
    path: '/api/browse',
    input: 'query',
    request: BROWSE_REQUEST_SCHEMA,
    response: BROWSE_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** `create`: the first index of a folder just added (the CLI's `cairn index` of a new folder). */
  indexFolder: route({
    method: 'POST',
    path: '/api/folders/index',
    input: 'body',
    // The MCP index_update tool's request: one declaration of what indexing a folder is asked.
    request: INDEX_UPDATE_REQUEST_SCHEMA,
    response: JOB_INFO_SCHEMA,
    status: 202,
  }),
  jobs: route({ method: 'GET', path: '/api/jobs', input: 'none', response: listOf(JOB_INFO_SCHEMA), status: 200 }),
  jobAction: route({
    method: 'POST',
    path: '/api/jobs/action',
    input: 'body',
    request: REQUESTS.jobAction,
    response: JOB_INFO_SCHEMA,
    status: 200,
  }),
  /** Engine-wide pause/resume of indexing (the tray's and the index panel's switch): pausing holds every job at its next checkpoint and every job queued later, until resumed. */
  setPaused: route({
    method: 'POST',
    path: '/api/jobs/paused',
    input: 'body',
    request: REQUESTS.setPaused,
    response: SET_PAUSED_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** The models Cairn knows, and whether each is on this computer. */
  models: route({
    method: 'GET',
    path: '/api/models',
    input: 'none',
    response: listOf(MODEL_INFO_SCHEMA),
    status: 200,
  }),
  /** Loads the configured embedding model now (a hub model downloads; status shows the bytes). */
  loadModel: route({
    method: 'POST',
    path: '/api/model/load',
    input: 'none',
    response: MODEL_STATUS_SCHEMA,
    status: 202,
  }),
  /** Downloads and checks a model, then makes it the configured one (status: model_switch). */
  switchModel: route({
    method: 'POST',
    path: '/api/model/switch',
    input: 'body',
    request: REQUESTS.switchModel,
    response: MODEL_SWITCH_SCHEMA,
    status: 202,
  }),
  /** The MCP search tool's contract (its defaults: the mounted server's, applied by the handler). */
  search: route({
    method: 'POST',
    path: '/api/search',
    input: 'body',
    request: SEARCH_REQUEST_SCHEMA,
    check: checkSearchRequest,
    response: SEARCH_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** Lines of an indexed file, by the MCP read tool's contract (the browser workbench's viewer). */
  read: route({
    method: 'POST',
    path: '/api/read',
    input: 'body',
    request: READ_REQUEST_SCHEMA,
    response: READ_RESPONSE_SCHEMA,
    status: 200,
  }),
  /** Snippets carry a key placeholder unless `reveal=1` (then the real key, for copying). */
  clients: route({
    method: 'GET',
    path: '/api/clients',
    input: 'query',
    request: reveal,
    response: listOf(CLIENT_CONFIG_SCHEMA),
    status: 200,
  }),
  /** `confirm: true` is the engine's guard that a person agreed to have a config file rewritten. */
  installClient: route({
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
/** What a route answers on success (read from its response schema). */
export type AdminResponse<K extends AdminRouteName> = TypesOf<K>['res'];
