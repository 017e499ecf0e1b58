/**
 * Folder, job and engine status: what `cairn status`, the admin API and the workbench show.
 * Declared as schemas, the types read from them (json-schema.ts), so that the contract tests
 * judge the engine's real answers by the same declaration the code compiles against.
 */
import { KEY_STORAGES } from './api-key.js';
import { ERROR_BODY_SCHEMA } from './errors.js';
import { SKIP_SUMMARY_SCHEMA } from './files.js';
import type { FromSchema, Schema } from './json-schema.js';
import { FOLDER_STATES, FRESHNESS_SCHEMA, SEARCH_MODES } from './search.js';

const count = { type: 'integer', minimum: 0 } as const;
const str = { type: 'string' } as const;
const strs = { type: 'array', items: str } as const;
const time = { type: 'string', format: 'date-time' } as const;
const timeOrNull = { type: ['string', 'null'], format: 'date-time' } as const;
const errorOrNull = { ...ERROR_BODY_SCHEMA, type: ['object', 'null'] } as const;

export const FILE_ERROR_SCHEMA = {
  type: 'object',
  properties: { path: str, code: str, message: str },
  required: ['path', 'code', 'message'],
  additionalProperties: false,
} as const satisfies Schema;
export type FileError = FromSchema<typeof FILE_ERROR_SCHEMA>;

export const JOB_KINDS = ['create', 'update', 'rebuild'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATES = ['queued', 'running', 'paused', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const JOB_PHASES = ['queued', 'scanning', 'parsing', 'writing', 'embedding', 'done'] as const;
export type JobPhase = (typeof JOB_PHASES)[number];

/** A job's progress in words and one fraction (common/progress.ts builds it), as every surface shows it. */
export const PROGRESS_VIEW_SCHEMA = {
  type: 'object',
  properties: {
    label: { type: 'string', description: 'What is happening, in words ("computing vectors", "queued", "paused").' },
    fraction: {
      type: ['number', 'null'],
      minimum: 0,
      maximum: 1,
      description: 'Of the current phase, 0..1; null when its total is not known yet.',
    },
    counts: { type: 'string', description: '"1,584 of 30,818 chunks (52 of 425 files)".' },
    eta: { type: ['string', 'null'], description: '"about 4 min left"; null when not known.' },
    file: {
      type: 'string',
      description:
        '"embedding docs/CHANGELOG.md" while vectors are computed; absent between files and when not running.',
    },
  },
  required: ['label', 'fraction', 'counts', 'eta'],
  additionalProperties: false,
} as const satisfies Schema;
export type ProgressView = FromSchema<typeof PROGRESS_VIEW_SCHEMA>;

export const JOB_PROGRESS_SCHEMA = {
  type: 'object',
  properties: {
    phase: { enum: JOB_PHASES },
    files_done: count,
    files_total: count,
    chunks_done: count,
    chunks_total: count,
    throughput: { type: 'number', minimum: 0, description: 'Chunks per second over the recent past.' },
    eta_seconds: { type: ['number', 'null'], minimum: 0 },
    current_file: {
      type: 'string',
      description: 'The file whose chunks are being embedded now, relative to the folder; absent between files.',
    },
    summary: { ...PROGRESS_VIEW_SCHEMA, description: 'The same numbers in words (main/common/progress.ts).' },
  },
  required: ['phase', 'files_done', 'files_total', 'chunks_done', 'chunks_total', 'throughput', 'eta_seconds'],
  additionalProperties: false,
} as const satisfies Schema;
export type JobProgress = FromSchema<typeof JOB_PROGRESS_SCHEMA>;

export const JOB_INFO_SCHEMA = {
  type: 'object',
  properties: {
    id: str,
    kind: { enum: JOB_KINDS },
    folder: str,
    state: { enum: JOB_STATES },
    progress: JOB_PROGRESS_SCHEMA,
    errors: count,
    error: ERROR_BODY_SCHEMA,
    created_at: time,
    finished_at: timeOrNull,
  },
  required: ['id', 'kind', 'folder', 'state', 'progress', 'errors', 'created_at', 'finished_at'],
  additionalProperties: false,
} as const satisfies Schema;
export type JobInfo = FromSchema<typeof JOB_INFO_SCHEMA>;

export const FOLDER_STATUS_SCHEMA = {
  type: 'object',
  properties: {
    path: str,
    include: strs,
    exclude: strs,
    include_secrets: {
      type: 'boolean',
      description: 'The folder indexes credential files the built-in secret excludes would leave out.',
    },
    secrets_excluded: {
      type: ['integer', 'null'],
      minimum: 0,
      description:
        'Files and folders (`.env`, keys, `.ssh/`…) the secret excludes kept out at the last full scan in this process; null before one.',
    },
    skipped: {
      ...SKIP_SUMMARY_SCHEMA,
      type: ['object', 'null'],
      description: 'What the last full scan (and the watcher since) left out, by reason; null before any scan.',
    },
    text_only: {
      type: 'boolean',
      description: 'No vectors are computed for this folder (full-text and graph search only).',
    },
    state: { enum: FOLDER_STATES },
    reason: {
      type: 'string',
      description: 'Why the folder is in `error`: the last indexing failure, else why it cannot be watched.',
    },
    watch_error: {
      type: 'string',
      description:
        "Why live updates cannot follow the folder (it vanished, it cannot be subscribed), apart from the index's own health.",
    },
    files: count,
    chunks: count,
    embedded_chunks: { ...count, description: 'Chunks that have vectors.' },
    file_errors: count,
    errors: { type: 'array', items: FILE_ERROR_SCHEMA, description: 'The first per-file errors (bounded).' },
    updated_at: timeOrNull,
    freshness: FRESHNESS_SCHEMA,
    progress: JOB_PROGRESS_SCHEMA,
  },
  required: [
    'path',
    'include',
    'exclude',
    'include_secrets',
    'secrets_excluded',
    'skipped',
    'text_only',
    'state',
    'files',
    'chunks',
    'embedded_chunks',
    'file_errors',
    'errors',
    'updated_at',
    'freshness',
  ],
  additionalProperties: false,
} as const satisfies Schema;
export type FolderStatus = FromSchema<typeof FOLDER_STATUS_SCHEMA>;

export const INDEX_CONTRACT_SCHEMA = {
  type: 'object',
  properties: {
    embedding_model: str,
    embedding_dimensions: count,
    chunker_version: count,
    fts: {
      type: 'object',
      properties: {
        analyzer: str,
        tokenizer: str,
        stem: { type: 'boolean' },
        stop_words: { type: 'boolean' },
        language: str,
      },
      required: ['tokenizer', 'stem', 'stop_words', 'language'],
      additionalProperties: false,
    },
  },
  required: ['embedding_model', 'embedding_dimensions', 'chunker_version', 'fts'],
  additionalProperties: false,
} as const satisfies Schema;
export type IndexContract = FromSchema<typeof INDEX_CONTRACT_SCHEMA>;

export const MODEL_INFO_SCHEMA = {
  type: 'object',
  properties: {
    id: str,
    dimensions: count,
    max_tokens: count,
    size_mb: { type: 'number', minimum: 0 },
    builtin: { type: 'boolean' },
    available: { type: 'boolean', description: 'On this computer.' },
    description: str,
  },
  required: ['id', 'dimensions', 'max_tokens', 'size_mb', 'builtin', 'available', 'description'],
  additionalProperties: false,
} as const satisfies Schema;
export type ModelInfo = FromSchema<typeof MODEL_INFO_SCHEMA>;

export const MODEL_STATES = ['ready', 'loading', 'downloading', 'missing', 'error'] as const;
export type ModelState = (typeof MODEL_STATES)[number];

/** A hub model's files as they arrive (transformers.js reports each file's bytes). */
export const MODEL_DOWNLOAD_SCHEMA = {
  type: 'object',
  properties: {
    loaded_bytes: count,
    total_bytes: { ...count, description: "0 while no file's size is known yet." },
    percent: {
      type: ['number', 'null'],
      minimum: 0,
      maximum: 100,
      description: 'Of the files whose size is known; null before any is.',
    },
    files: {
      type: 'array',
      items: {
        type: 'object',
        properties: { file: str, loaded_bytes: count, total_bytes: count },
        required: ['file', 'loaded_bytes', 'total_bytes'],
        additionalProperties: false,
      },
    },
  },
  required: ['loaded_bytes', 'total_bytes', 'percent', 'files'],
  additionalProperties: false,
} as const satisfies Schema;
export type ModelDownload = FromSchema<typeof MODEL_DOWNLOAD_SCHEMA>;

/**
 * The configured model and its state (GET /api/status `model`, POST /api/model/load). `missing`:
 * a hub model not on this computer yet (downloaded when first needed, or on POST /api/model/load);
 * `downloading`: with `download`; `error`: with `error` and `remedy`.
 */
export const MODEL_STATUS_SCHEMA = {
  type: 'object',
  properties: {
    ...MODEL_INFO_SCHEMA.properties,
    state: { enum: MODEL_STATES },
    error: str,
    remedy: str,
    download: MODEL_DOWNLOAD_SCHEMA,
  },
  required: [...MODEL_INFO_SCHEMA.required, 'state'],
  additionalProperties: false,
} as const satisfies Schema;
export type ModelStatus = FromSchema<typeof MODEL_STATUS_SCHEMA>;

/**
 * A model change in progress or just ended (POST /api/model/switch): the new model is downloaded
 * and checked first; `embedding.model` changes only when `state` becomes `done`.
 */
export const MODEL_SWITCH_SCHEMA = {
  type: 'object',
  properties: {
    target: str,
    from: str,
    state: { enum: ['downloading', 'verifying', 'done', 'failed'] },
    download: MODEL_DOWNLOAD_SCHEMA,
    error: str,
    remedy: str,
    started_at: time,
    finished_at: time,
  },
  required: ['target', 'from', 'state', 'started_at'],
  additionalProperties: false,
} as const satisfies Schema;
export type ModelSwitchStatus = FromSchema<typeof MODEL_SWITCH_SCHEMA>;

/** A repair of a damaged index by the running engine (see EngineStatus.index_repair). */
export const INDEX_REPAIR_SCHEMA = {
  type: 'object',
  properties: {
    state: {
      enum: ['moving_aside', 'rebuilding', 'done', 'failed'],
      description:
        '`moving_aside` until the damaged index is out of the way, then `rebuilding` until every folder is indexed again.',
    },
    damage: {
      ...ERROR_BODY_SCHEMA,
      description: 'The damage found (`index_corrupt`, naming the table in `details.table`).',
    },
    moved_to: {
      type: ['string', 'null'],
      description: 'Where the damaged index was moved (kept for a post mortem; delete it when done).',
    },
    started_at: time,
    finished_at: timeOrNull,
    error: { ...errorOrNull, description: 'Why the repair failed, when it did.' },
  },
  required: ['state', 'damage', 'moved_to', 'started_at', 'finished_at', 'error'],
  additionalProperties: false,
} as const satisfies Schema;
export type IndexRepair = FromSchema<typeof INDEX_REPAIR_SCHEMA>;

export const ENGINE_STATUS_SCHEMA = {
  type: 'object',
  properties: {
    version: str,
    data_dir: str,
    folders: { type: 'array', items: FOLDER_STATUS_SCHEMA },
    jobs: { type: 'array', items: JOB_INFO_SCHEMA },
    model: MODEL_STATUS_SCHEMA,
    contract: { ...INDEX_CONTRACT_SCHEMA, type: ['object', 'null'] },
    contract_mismatch: {
      ...errorOrNull,
      description: 'Set when the configured model or chunker conflicts with the stored index.',
    },
    index_damage: {
      ...errorOrNull,
      description: 'Set when a table of the index was found damaged (`index_corrupt`, naming the table).',
    },
    index_repair: {
      ...INDEX_REPAIR_SCHEMA,
      type: ['object', 'null'],
      description:
        'A serving engine that finds damage repairs in place (the damaged index moved aside, a new one built in the background); absent or null when no repair ran since start.',
    },
    secret_excludes: {
      ...strs,
      description:
        "What the built-in secret excludes leave out of every folder without `include_secrets`, as patterns (`.ssh/`, `*.pem`, `.env*`); each folder's `secrets_excluded` counts what they caught.",
    },
    paused: { type: 'boolean' },
    model_switch: {
      ...MODEL_SWITCH_SCHEMA,
      type: ['object', 'null'],
      description: 'The last model switch, while it runs and after it ended (null when none this run).',
    },
    totals: {
      type: 'object',
      properties: { files: count, chunks: count, embedded_chunks: count },
      required: ['files', 'chunks', 'embedded_chunks'],
      additionalProperties: false,
    },
  },
  required: [
    'version',
    'data_dir',
    'folders',
    'jobs',
    'model',
    'contract',
    'contract_mismatch',
    'secret_excludes',
    'paused',
    'model_switch',
    'totals',
  ],
  additionalProperties: false,
} as const satisfies Schema;
export type EngineStatus = FromSchema<typeof ENGINE_STATUS_SCHEMA>;

export const MCP_STATUS_SCHEMA = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    running: { type: 'boolean' },
    advertised_url: str,
    in_process_url: str,
    transport: {
      type: 'object',
      description:
        '`stateless`/`sessions` concern 2025-era clients only (2026-07-28 requests are stateless by the protocol); `protocol_versions` are the revisions served, newest first; `sessions` is how many 2025-era sessions are open (0 when stateless).',
      properties: {
        stateless: { type: 'boolean' },
        json_response: { type: 'boolean' },
        protocol_versions: strs,
        sessions: count,
      },
      required: ['stateless', 'json_response', 'protocol_versions', 'sessions'],
      additionalProperties: false,
    },
    security: {
      type: 'object',
      properties: {
        dns_rebinding_protection: { type: 'boolean' },
        allowed_hosts: strs,
        allowed_origins: strs,
        require_api_key: { type: 'boolean' },
        api_key_set: { type: 'boolean' },
        loopback_only: { type: 'boolean' },
        other_login_users: {
          ...strs,
          description:
            'Other accounts that can log in to this machine (POSIX). With the key off, each of them can search and read every indexed file over loopback.',
        },
        key_off_with_other_users: {
          type: 'boolean',
          description:
            'The key is not required while other_login_users is not empty: the workbench offers to require it.',
        },
        key_storage: {
          type: 'object',
          description: 'How the key is kept at rest, and what the user should know about it (null: nothing).',
          properties: { kind: { enum: [...KEY_STORAGES, null] }, notice: { type: ['string', 'null'] } },
          required: ['kind', 'notice'],
          additionalProperties: false,
        },
        warnings: strs,
      },
      required: [
        'dns_rebinding_protection',
        'allowed_hosts',
        'allowed_origins',
        'require_api_key',
        'api_key_set',
        'loopback_only',
        'other_login_users',
        'key_off_with_other_users',
        'key_storage',
        'warnings',
      ],
      additionalProperties: false,
    },
    toolset: { enum: ['agent', 'full'] },
    tools: strs,
    default_mode: { enum: SEARCH_MODES },
    default_top_k: { type: 'integer', minimum: 1 },
    config_default_mode: { enum: SEARCH_MODES },
    config_default_top_k: { type: 'integer', minimum: 1 },
    defaults_restart_pending: { type: 'boolean' },
    remount_pending: {
      type: 'array',
      description:
        'Saved settings the mounted server does not use yet (toolset, defaults, transport...): remount to apply.',
      items: {
        type: 'object',
        properties: { key: str, mounted: {}, configured: {} },
        required: ['key', 'mounted', 'configured'],
        additionalProperties: false,
      },
    },
    stdio_command: strs,
    uptime_s: { type: 'number', minimum: 0 },
    requests: {
      type: 'object',
      properties: { total: count, errors: count, rejected: count },
      required: ['total', 'errors', 'rejected'],
      additionalProperties: false,
    },
  },
  required: [
    'enabled',
    'running',
    'advertised_url',
    'in_process_url',
    'transport',
    'security',
    'toolset',
    'tools',
    'default_mode',
    'default_top_k',
    'config_default_mode',
    'config_default_top_k',
    'defaults_restart_pending',
    'remount_pending',
    'stdio_command',
    'uptime_s',
    'requests',
  ],
  additionalProperties: false,
} as const satisfies Schema;
export type McpStatus = FromSchema<typeof MCP_STATUS_SCHEMA>;

export const PROBE_HIT_SCHEMA = {
  type: 'object',
  properties: {
    path: str,
    start_line: { type: 'integer', minimum: 1 },
    end_line: { type: 'integer', minimum: 1 },
    page: {
      type: 'integer',
      minimum: 1,
      description: "PDF: the page the lines are on (a PDF's hits are otherwise alike: file.pdf:1-3 on every page).",
    },
    score: { type: 'number' },
  },
  required: ['path', 'start_line', 'end_line', 'score'],
  additionalProperties: false,
} as const satisfies Schema;
export type ProbeHit = FromSchema<typeof PROBE_HIT_SCHEMA>;

/** Which protocol era the probe speaks: `auto` negotiates (2026-07-28 here), the others pin one. */
export const PROBE_ERAS = ['auto', 'modern', 'legacy'] as const;
export type ProbeEra = (typeof PROBE_ERAS)[number];

/** The era and revision a probe's connection used; null fields when it never connected. */
const probeProtocol = {
  era: { enum: ['modern', 'legacy', null] },
  protocol_version: { type: ['string', 'null'] },
} as const;
export type ProbeProtocol = FromSchema<{
  type: 'object';
  properties: typeof probeProtocol;
  required: ['era', 'protocol_version'];
  additionalProperties: false;
}>;

/** A probe's answer: a success with hits, or a failure as a result (a typed error beside what it saw). */
export const PROBE_RESULT_SCHEMA = {
  anyOf: [
    {
      type: 'object',
      properties: {
        ok: { enum: [true] },
        tools: strs,
        latency_ms: { type: 'number', minimum: 0 },
        hits: { type: 'array', items: PROBE_HIT_SCHEMA },
        transport_url: str,
        transport_label: { enum: ['in-process'] },
        ...probeProtocol,
      },
      required: ['ok', 'tools', 'latency_ms', 'hits', 'transport_url', 'transport_label', 'era', 'protocol_version'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        ok: { enum: [false] },
        tools: strs,
        latency_ms: { type: 'number', minimum: 0 },
        transport_url: str,
        error: ERROR_BODY_SCHEMA,
        ...probeProtocol,
      },
      required: ['ok', 'tools', 'latency_ms', 'transport_url', 'error', 'era', 'protocol_version'],
      additionalProperties: false,
    },
  ],
} as const satisfies Schema;
export type ProbeResult = FromSchema<typeof PROBE_RESULT_SCHEMA>;
