/**
 * What a folder holds, file by file: indexed, waiting for vectors, in error, or skipped and why.
 * The indexer records every skip with one of these reasons (main/engine/indexer/skip-log.ts);
 * `cairn status --json`, the admin API's per-folder listing and the workbench's file list show them.
 * The request and answers are declared as schemas, their types read from them (json-schema.ts).
 */
import type { FromSchema, Schema } from './json-schema.js';

/** Why a file (or a whole directory) is not in the index, in words a person reads. */
export const SKIP_REASONS = {
  too_large: 'larger than index.max_file_bytes',
  binary: 'binary content',
  minified: 'minified code',
  secret: 'a credential file, left out by the secret excludes',
  ignored: 'ignored by .gitignore or .ignore',
  excluded: 'matched an exclude glob',
  not_included: 'outside the include globs',
  default_exclude: 'a built-in exclude (.git, node_modules, build output…)',
  data_folder: "Cairn's own data folder",
  symlink_outside: 'a symlink that leads outside the folder',
  symlink_excluded: 'a symlink to a path the rules leave out',
  symlink_loop: 'a symlink loop',
  broken_symlink: 'a broken symlink',
  not_regular: 'not a regular file (a device, FIFO or socket)',
} as const;

export type SkipReason = keyof typeof SKIP_REASONS;

export function isSkipReason(v: unknown): v is SkipReason {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(SKIP_REASONS, v);
}

export const SKIP_REASON_CODES = Object.keys(SKIP_REASONS) as SkipReason[];

const count = { type: 'integer', minimum: 0 } as const;

/** A count per skip reason; a reason that skipped nothing is absent. */
export const SKIPS_BY_REASON_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(SKIP_REASON_CODES.map((r) => [r, count])) as { [R in SkipReason]: typeof count },
  additionalProperties: false,
} as const satisfies Schema;

/** Skips at the folder's last full scan, and since then from the watcher. */
export const SKIP_SUMMARY_SCHEMA = {
  type: 'object',
  properties: {
    total: count,
    by_reason: SKIPS_BY_REASON_SCHEMA,
    scanned_at: { type: ['string', 'null'], description: 'When the last full scan recorded them.' },
  },
  required: ['total', 'by_reason', 'scanned_at'],
  additionalProperties: false,
} as const satisfies Schema;
export type SkipSummary = FromSchema<typeof SKIP_SUMMARY_SCHEMA>;

export const FILE_LIST_SHOWS = ['all', 'indexed', 'embedding', 'errors', 'skipped'] as const;
/** `embedding`: indexed for text, vectors not computed yet. */
export type FileListShow = (typeof FILE_LIST_SHOWS)[number];

export const FILE_LIST_LIMIT = { default: 100, max: 500 } as const;

/** GET /api/folders/files: URL query parameters (numbers arrive as text; json-schema.ts fromQuery reads them). */
export const FOLDER_FILES_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, description: 'The indexed folder.' },
    show: { enum: FILE_LIST_SHOWS, default: 'all' },
    q: {
      type: 'string',
      description: 'Case-insensitive substring of the folder-relative path (the first 500 characters count).',
    },
    offset: { type: 'integer', minimum: 0, maximum: 1e9, default: 0 },
    limit: { type: 'integer', minimum: 1, maximum: FILE_LIST_LIMIT.max, default: FILE_LIST_LIMIT.default },
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies Schema;
export type FolderFilesRequest = FromSchema<typeof FOLDER_FILES_REQUEST_SCHEMA>;

export const FOLDER_FILE_STATUSES = ['indexed', 'embedding', 'text_only', 'error', 'skipped'] as const;
export type FolderFileStatus = (typeof FOLDER_FILE_STATUSES)[number];

export const FOLDER_FILE_ENTRY_SCHEMA = {
  type: 'object',
  properties: {
    rel: { type: 'string', description: 'Folder-relative, forward slashes; a skipped directory ends with `/`.' },
    path: { type: 'string' },
    status: { enum: FOLDER_FILE_STATUSES },
    size: count,
    chunks: count,
    reason: { enum: SKIP_REASON_CODES, description: "Skipped: the reason's code." },
    reason_text: { type: 'string', description: 'The reason in words.' },
    detail: { type: 'string', description: 'Figures beside the reason.' },
    code: { type: 'string', description: 'Error: the typed code.' },
    message: { type: 'string', description: "Error: the failure's message." },
  },
  required: ['rel', 'path', 'status'],
  additionalProperties: false,
} as const satisfies Schema;
export type FolderFileEntry = FromSchema<typeof FOLDER_FILE_ENTRY_SCHEMA>;

export const FOLDER_FILES_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    folder: { type: 'string' },
    show: { enum: FILE_LIST_SHOWS },
    q: { type: 'string' },
    offset: count,
    limit: { type: 'integer', minimum: 1 },
    total: { ...count, description: 'Entries matching show and q (the pages add up to it).' },
    items: { type: 'array', items: FOLDER_FILE_ENTRY_SCHEMA },
    counts: {
      type: 'object',
      description: 'The whole folder, whatever show and q say.',
      properties: { indexed: count, embedding: count, errors: count, skipped: count },
      required: ['indexed', 'embedding', 'errors', 'skipped'],
      additionalProperties: false,
    },
    skipped_by_reason: SKIPS_BY_REASON_SCHEMA,
    skipped_reasons: {
      type: 'array',
      description: 'The same counts with each reason in words, most frequent first.',
      items: {
        type: 'object',
        properties: { reason: { enum: SKIP_REASON_CODES }, text: { type: 'string' }, count },
        required: ['reason', 'text', 'count'],
        additionalProperties: false,
      },
    },
    skipped_listed_all: {
      type: 'boolean',
      description: 'False when the folder skips more entries than are kept by path (the counts stay exact).',
    },
    text_only: { type: 'boolean' },
  },
  required: [
    'folder',
    'show',
    'q',
    'offset',
    'limit',
    'total',
    'items',
    'counts',
    'skipped_by_reason',
    'skipped_reasons',
    'skipped_listed_all',
    'text_only',
  ],
  additionalProperties: false,
} as const satisfies Schema;
export type FolderFilesResponse = FromSchema<typeof FOLDER_FILES_RESPONSE_SCHEMA>;
