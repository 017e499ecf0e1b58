/**
 * The admin API's settings, key, folder-option and client answers and requests (the route table
 * that uses them: admin-api.ts; status answers are in status.ts), declared as schemas with their
 * types read from them, so that tests judge the engine's answers by the same declaration.
 */
import type { FromSchema, Schema } from './json-schema.js';
import { FOLDER_SPEC_SCHEMA } from './settings.js';

/** PATCH /api/folders: a folder's options that need no re-add (as the folder spec declares them). */
export const UPDATE_FOLDER_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    path: FOLDER_SPEC_SCHEMA.properties.path,
    text_only: {
      ...FOLDER_SPEC_SCHEMA.properties.text_only,
      description: 'Index text only (no vectors); turning it off computes the vectors.',
    },
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies Schema;
export type UpdateFolderRequest = FromSchema<typeof UPDATE_FOLDER_REQUEST_SCHEMA>;

export const SET_PAUSED_RESPONSE_SCHEMA = {
  type: 'object',
  properties: { paused: { type: 'boolean' } },
  required: ['paused'],
  additionalProperties: false,
} as const satisfies Schema;
export type SetPausedResponse = FromSchema<typeof SET_PAUSED_RESPONSE_SCHEMA>;

export const SETTINGS_RESPONSE_SCHEMA = {
  type: 'object',
  properties: { values: { type: 'object', description: 'Every setting key with its current value.' } },
  required: ['values'],
  additionalProperties: false,
} as const satisfies Schema;
export type SettingsResponse = FromSchema<typeof SETTINGS_RESPONSE_SCHEMA>;

const VALIDATION_ISSUE_SCHEMA = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    rule: { type: 'string' },
    message: {
      type: 'string',
      description: 'A sentence a person understands: where (entries counted from 1), what is accepted.',
    },
    needs_confirmation: {
      type: 'boolean',
      description: 'Saved once confirmed (`confirm: true`); without it the save is refused with `conflict`.',
    },
  },
  required: ['key', 'rule', 'message'],
  additionalProperties: false,
} as const satisfies Schema;
export type ValidationIssue = FromSchema<typeof VALIDATION_ISSUE_SCHEMA>;

export const VALIDATE_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    ok: { type: 'boolean', description: 'No issue at all (issues that only need a confirmation are issues too).' },
    issues: { type: 'array', items: VALIDATION_ISSUE_SCHEMA },
  },
  required: ['ok', 'issues'],
  additionalProperties: false,
} as const satisfies Schema;
export type ValidateResponse = FromSchema<typeof VALIDATE_RESPONSE_SCHEMA>;

export const API_KEY_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    set: { type: 'boolean' },
    key: { type: 'string', description: 'Only returned on `?reveal=1` or right after generation.' },
  },
  required: ['set'],
  additionalProperties: false,
} as const satisfies Schema;
export type ApiKeyResponse = FromSchema<typeof API_KEY_RESPONSE_SCHEMA>;

/** What installing a client's config wrote: the file, and the copy of what it held before (none if new). */
export const INSTALL_RESULT_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'string' }, config_path: { type: 'string' }, backup_path: { type: ['string', 'null'] } },
  required: ['id', 'config_path', 'backup_path'],
  additionalProperties: false,
} as const satisfies Schema;
export type InstallResult = FromSchema<typeof INSTALL_RESULT_SCHEMA>;

export const CLIENT_IDS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'codex', 'windsurf', 'gemini'] as const;

export const CLIENT_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    id: { enum: CLIENT_IDS },
    name: { type: 'string' },
    config_path: { type: ['string', 'null'], description: 'Where the config lives on this OS.' },
    format: { enum: ['json', 'toml', 'command'] },
    snippet: { type: 'string', description: 'The text to paste (or the command to run).' },
    uses: { enum: ['http', 'stdio'] },
    installable: { type: 'boolean' },
  },
  required: ['id', 'name', 'config_path', 'format', 'snippet', 'uses', 'installable'],
  additionalProperties: false,
} as const satisfies Schema;
export type ClientConfig = FromSchema<typeof CLIENT_CONFIG_SCHEMA>;

export const REMOVE_FOLDER_RESPONSE_SCHEMA = {
  type: 'object',
  properties: { removed: { type: 'string', description: 'The folder as it was named in the request.' } },
  required: ['removed'],
  additionalProperties: false,
} as const satisfies Schema;
