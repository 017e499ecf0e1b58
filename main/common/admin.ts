/**
 * The admin API's request and answer types (the route table that uses them: admin-api.ts); the
 * small answers are declared as schemas, their types read from them, so that tests judge the
 * engine's answers by the same declaration.
 */
import type { FromSchema, Schema } from './json-schema.js';

export interface UpdateFolderRequest {
  path: string;
  /** Index text only (no vectors); turning it off computes the folder's vectors. */
  text_only?: boolean;
}

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
