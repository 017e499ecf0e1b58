/** The admin API's request and answer types (the route table that uses them: admin-api.ts). */

export interface UpdateFolderRequest {
  path: string;
  /** Index text only (no vectors); turning it off computes the folder's vectors. */
  text_only?: boolean;
}

export interface SetPausedResponse {
  paused: boolean;
}

export interface SettingsResponse {
  values: Record<string, unknown>;
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

export interface ApiKeyResponse {
  set: boolean;
  /** Only returned on `?reveal=1` or right after generation. */
  key?: string;
}

/** What installing a client's config wrote: the file, and the copy of what it held before (none if new). */
export interface InstallResult {
  id: string;
  config_path: string;
  backup_path: string | null;
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
