/** Admin API routes (under `/api`), shared by the engine's router and the workbench client. */
import type { FolderSpec } from './settings.js';
import type { SearchResponse } from './search.js';
import type { SearchRequest } from './requests.js';

export const ADMIN_ROUTES = {
  engineStatus: 'GET /api/status',
  mcpStatus: 'GET /api/mcp/status',
  probe: 'POST /api/mcp/probe',
  restart: 'POST /api/mcp/restart',
  settings: 'GET /api/settings',
  updateSettings: 'PATCH /api/settings',
  validateSettings: 'POST /api/settings/validate',
  apiKey: 'GET /api/mcp/api-key',
  rotateApiKey: 'POST /api/mcp/api-key',
  folders: 'GET /api/folders',
  addFolder: 'POST /api/folders',
  removeFolder: 'DELETE /api/folders',
  /** A folder's options that need no re-add (text_only). */
  updateFolder: 'PATCH /api/folders',
  /** One folder's files, paged: indexed, waiting for vectors, errors, skipped and why. */
  folderFiles: 'GET /api/folders/files',
  /** Directories below the home folder, for the headless workbench's folder browser. */
  browse: 'GET /api/browse',
  /** The settings table (key, default, rule, meaning, when it applies) the settings editor is built from. */
  settingsSpec: 'GET /api/settings/spec',
  indexFolder: 'POST /api/folders/index',
  jobs: 'GET /api/jobs',
  jobAction: 'POST /api/jobs/action',
  /** Engine-wide pause/resume of indexing (the tray's and the index panel's switch). */
  setPaused: 'POST /api/jobs/paused',
  /** The models Cairn knows, and whether each is on this computer. */
  models: 'GET /api/models',
  /** Loads the configured embedding model now (a hub model downloads; status shows the bytes). */
  loadModel: 'POST /api/model/load',
  /** Downloads and checks a model, then makes it the configured one (status: model_switch). */
  switchModel: 'POST /api/model/switch',
  search: 'POST /api/search',
  /** Lines of an indexed file, by the MCP read tool's contract (the browser workbench's viewer). */
  read: 'POST /api/read',
  clients: 'GET /api/clients',
  installClient: 'POST /api/clients/install',
} as const;

export type AddFolderRequest = FolderSpec;
export interface RemoveFolderRequest {
  path: string;
}
export interface UpdateFolderRequest {
  path: string;
  /** Index text only (no vectors); turning it off computes the folder's vectors. */
  text_only?: boolean;
}
export interface IndexFolderRequest {
  path: string;
  /** `create`: the first index of a folder just added (the CLI's `cairn index` of a new folder). */
  kind: 'update' | 'rebuild' | 'create';
}
export interface JobActionRequest {
  id: string;
  action: 'pause' | 'resume' | 'cancel';
}
/** Pausing holds every job at its next checkpoint and every job queued later, until resumed. */
export interface SetPausedRequest {
  paused: boolean;
}
export interface SetPausedResponse {
  paused: boolean;
}
export type AdminSearchRequest = SearchRequest;
export type AdminSearchResponse = SearchResponse;

export interface SettingsResponse {
  values: Record<string, unknown>;
}
export interface SettingsPatch {
  values: Record<string, unknown>;
  /** The person agreed to the issues that need a confirmation (a new address or port). */
  confirm?: boolean;
}
export interface ValidationIssue {
  key: string;
  rule: string;
  /** A sentence a person understands: where (entries counted from 1), what is accepted. */
  message: string;
  /** Saved once confirmed (`confirm: true`); without it the save is refused with `conflict`. */
  needs_confirmation?: boolean;
}
export interface ValidateResponse {
  /** No issue at all (issues that only need a confirmation are issues too). */
  ok: boolean;
  issues: ValidationIssue[];
}

/**
 * `generate` (none set yet) and `rotate` make a new random key and return it once; `set` stores a
 * key of the caller's (at least API_KEY_MIN_LENGTH URL-safe characters, see api-key.ts).
 */
export type ApiKeyActionRequest = { action: 'generate' | 'rotate' } | { action: 'set'; key: string };

export interface ApiKeyResponse {
  set: boolean;
  /** Only returned on `?reveal=1` or right after generation. */
  key?: string;
}

export interface ClientConfig {
  id: 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'codex' | 'windsurf' | 'gemini';
  name: string;
  /** Where the config lives on this OS. */
  config_path: string | null;
  format: 'json' | 'toml' | 'command';
  /** The text to paste (or the command to run). */
  snippet: string;
  uses: 'http' | 'stdio';
  installable: boolean;
}
