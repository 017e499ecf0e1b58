/** Folder, job and engine status: what `cairn status`, the admin API and the workbench show. */
import type { KeyStorage } from './api-key.js';
import type { FolderState, Freshness, SearchMode } from './search.js';
import type { ErrorBody } from './errors.js';
import type { SkipSummary } from './files.js';

export interface FileError {
  path: string;
  code: string;
  message: string;
}

export interface FolderStatus {
  path: string;
  include: string[];
  exclude: string[];
  /** The folder indexes credential files the built-in secret excludes would leave out. */
  include_secrets: boolean;
  /**
   * Files and folders (`.env`, keys, `.ssh/`…) the secret excludes kept out at the last full scan
   * in this process; null before one.
   */
  secrets_excluded: number | null;
  /** What the last full scan (and the watcher since) left out, by reason; null before any scan. */
  skipped: SkipSummary | null;
  /** No vectors are computed for this folder (full-text and graph search only). */
  text_only: boolean;
  state: FolderState;
  /** Why the folder is in `error`: the last indexing failure, else why it cannot be watched. */
  reason?: string;
  /**
   * Why live updates cannot follow the folder (it vanished, it cannot be subscribed), apart from
   * the index's own health: the index may be complete as of its last sync and still not kept fresh.
   */
  watch_error?: string;
  files: number;
  chunks: number;
  /** Chunks that have vectors. */
  embedded_chunks: number;
  file_errors: number;
  /** The first per-file errors (bounded). */
  errors: FileError[];
  updated_at: string | null;
  freshness: Freshness;
  progress?: JobProgress;
}

export type JobKind = 'create' | 'update' | 'rebuild';

/** A job's progress in words and one fraction (common/progress.ts builds it), as every surface shows it. */
export interface ProgressView {
  /** What is happening, in words ("computing vectors", "queued", "paused"). */
  label: string;
  /** Of the current phase, 0..1; null when its total is not known yet. */
  fraction: number | null;
  /** "1,584 of 30,818 chunks (52 of 425 files)". */
  counts: string;
  /** "about 4 min left"; null when not known. */
  eta: string | null;
  /** "embedding docs/CHANGELOG.md" while vectors are computed; absent between files and when not running. */
  file?: string;
}

export type JobState = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';
export type JobPhase = 'queued' | 'scanning' | 'parsing' | 'writing' | 'embedding' | 'done';

export interface JobProgress {
  phase: JobPhase;
  files_done: number;
  files_total: number;
  chunks_done: number;
  chunks_total: number;
  /** Chunks per second over the recent past. */
  throughput: number;
  eta_seconds: number | null;
  /** The file whose chunks are being embedded now, relative to the folder; absent between files. */
  current_file?: string;
  /** The same numbers in words (main/common/progress.ts), so every surface says the same thing. */
  summary?: ProgressView;
}

export interface JobInfo {
  id: string;
  kind: JobKind;
  folder: string;
  state: JobState;
  progress: JobProgress;
  errors: number;
  error?: ErrorBody;
  created_at: string;
  finished_at: string | null;
}

export interface IndexContract {
  embedding_model: string;
  embedding_dimensions: number;
  chunker_version: number;
  fts: { analyzer?: string; tokenizer: string; stem: boolean; stop_words: boolean; language: string };
}

export interface ModelInfo {
  id: string;
  dimensions: number;
  max_tokens: number;
  size_mb: number;
  builtin: boolean;
  available: boolean;
  description: string;
}

export type ModelState = 'ready' | 'loading' | 'downloading' | 'missing' | 'error';

/** A hub model's files as they arrive (transformers.js reports each file's bytes). */
export interface ModelDownload {
  loaded_bytes: number;
  /** 0 while no file's size is known yet. */
  total_bytes: number;
  /** Of the files whose size is known; null before any is. */
  percent: number | null;
  files: { file: string; loaded_bytes: number; total_bytes: number }[];
}

/**
 * A model change in progress or just ended (POST /api/model/switch): the new model is downloaded
 * and checked first; `embedding.model` changes only when `state` becomes `done`.
 */
export interface ModelSwitchStatus {
  target: string;
  from: string;
  state: 'downloading' | 'verifying' | 'done' | 'failed';
  download?: ModelDownload;
  error?: string;
  remedy?: string;
  started_at: string;
  finished_at?: string;
}

export interface EngineStatus {
  version: string;
  data_dir: string;
  folders: FolderStatus[];
  jobs: JobInfo[];
  /**
   * `missing`: a hub model not on this computer yet (downloaded when first needed, or on
   * `POST /api/model/load`); `downloading`: with `download`; `error`: with `error` and `remedy`.
   */
  model: ModelInfo & { state: ModelState; error?: string; remedy?: string; download?: ModelDownload };
  contract: IndexContract | null;
  /** Set when the configured model or chunker conflicts with the stored index. */
  contract_mismatch: ErrorBody | null;
  /** Set when a table of the index was found damaged (`index_corrupt`, naming the table). */
  index_damage?: ErrorBody | null;
  /**
   * A serving engine that finds damage repairs in place: the damaged index is moved aside and a
   * new one built in the background. Absent or null when no repair ran since start.
   */
  index_repair?: IndexRepair | null;
  /**
   * What the built-in secret excludes leave out of every folder without `include_secrets`, as
   * patterns (`.ssh/`, `*.pem`, `.env*`); each folder's `secrets_excluded` counts what they caught.
   */
  secret_excludes: string[];
  paused: boolean;
  /** The last model switch, while it runs and after it ended (null when none this run). */
  model_switch: ModelSwitchStatus | null;
  totals: { files: number; chunks: number; embedded_chunks: number };
}

export interface McpStatus {
  enabled: boolean;
  running: boolean;
  advertised_url: string;
  in_process_url: string;
  /**
   * `stateless`/`sessions` concern 2025-era clients only: 2026-07-28 requests are stateless by the
   * protocol. `protocol_versions` are the revisions served, newest first; `sessions` is how many
   * 2025-era sessions are open (always 0 when stateless).
   */
  transport: { stateless: boolean; json_response: boolean; protocol_versions: string[]; sessions: number };
  security: {
    dns_rebinding_protection: boolean;
    allowed_hosts: string[];
    allowed_origins: string[];
    require_api_key: boolean;
    api_key_set: boolean;
    loopback_only: boolean;
    /**
     * Other accounts that can log in to this machine (POSIX). With the key off, each of them (and
     * their processes) can search and read every indexed file over loopback.
     */
    other_login_users: string[];
    /** The key is not required while other_login_users is not empty: the workbench offers to require it. */
    key_off_with_other_users: boolean;
    /** How the key is kept at rest, and what the user should know about it (null: nothing). */
    key_storage: { kind: KeyStorage | null; notice: string | null };
    warnings: string[];
  };
  toolset: 'agent' | 'full';
  tools: string[];
  default_mode: SearchMode;
  default_top_k: number;
  config_default_mode: SearchMode;
  config_default_top_k: number;
  defaults_restart_pending: boolean;
  /** Saved settings the mounted server does not use yet (toolset, defaults, transport...): remount to apply. */
  remount_pending: { key: string; mounted: unknown; configured: unknown }[];
  stdio_command: string[];
  uptime_s: number;
  requests: { total: number; errors: number; rejected: number };
}

export interface ProbeHit {
  path: string;
  start_line: number;
  end_line: number;
  /** PDF: the page the lines are on (a PDF's hits are otherwise alike: file.pdf:1-3 on every page). */
  page?: number;
  score: number;
}

/** Which protocol era the probe speaks: `auto` negotiates (2026-07-28 here), the others pin one. */
export const PROBE_ERAS = ['auto', 'modern', 'legacy'] as const;
export type ProbeEra = (typeof PROBE_ERAS)[number];

/** The era and revision a probe's connection used; null fields when it never connected. */
export interface ProbeProtocol {
  era: 'modern' | 'legacy' | null;
  protocol_version: string | null;
}

export type ProbeResult =
  | ({
      ok: true;
      tools: string[];
      latency_ms: number;
      hits: ProbeHit[];
      transport_url: string;
      transport_label: 'in-process';
    } & ProbeProtocol)
  | ({ ok: false; tools: string[]; latency_ms: number; transport_url: string; error: ErrorBody } & ProbeProtocol);

/** A repair of a damaged index by the running engine (see EngineStatus.index_repair). */
export interface IndexRepair {
  /** `moving_aside` until the damaged index is out of the way, then `rebuilding` until every folder is indexed again. */
  state: 'moving_aside' | 'rebuilding' | 'done' | 'failed';
  /** The damage found (`index_corrupt`, naming the table in `details.table`). */
  damage: ErrorBody;
  /** Where the damaged index was moved (kept for a post mortem; delete it when done). */
  moved_to: string | null;
  started_at: string;
  finished_at: string | null;
  /** Why the repair failed, when it did. */
  error: ErrorBody | null;
}
