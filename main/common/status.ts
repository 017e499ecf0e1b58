/**
 * Folder, job and engine status: what `cairn status`, the admin API and the workbench show.
 * Declared as schemas, the types read from them (json-schema.ts), so that the contract tests
 * judge the engine's real answers by the same declaration the code compiles against. The MCP
 * server's status and the probe's answer are in mcp-status.ts (re-exported here).
 */
import { ERROR_BODY_SCHEMA } from './errors.js';
import { SKIP_SUMMARY_SCHEMA } from './files.js';
import type { FromSchema, Schema } from './json-schema.js';
import { FOLDER_STATES, FRESHNESS_SCHEMA } from './search.js';

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

export * from './mcp-status.js';
