/**
 * What a folder holds, file by file: indexed, waiting for vectors, in error, or skipped and why.
 * The indexer records every skip with one of these reasons (main/engine/indexer/skip-log.ts);
 * `cairn status --json`, the admin API's per-folder listing and the workbench's file list show them.
 */

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

/** Skips at the folder's last full scan, and since then from the watcher. */
export interface SkipSummary {
  total: number;
  by_reason: Partial<Record<SkipReason, number>>;
  /** When the last full scan recorded them. */
  scanned_at: string | null;
}

export const FILE_LIST_SHOWS = ['all', 'indexed', 'embedding', 'errors', 'skipped'] as const;
/** `embedding`: indexed for text, vectors not computed yet. */
export type FileListShow = (typeof FILE_LIST_SHOWS)[number];

export const FILE_LIST_LIMIT = { default: 100, max: 500 } as const;

export interface FolderFilesRequest {
  path: string;
  show?: FileListShow;
  /** Case-insensitive substring of the folder-relative path. */
  q?: string;
  offset?: number;
  limit?: number;
}

export type FolderFileStatus = 'indexed' | 'embedding' | 'text_only' | 'error' | 'skipped';

export interface FolderFileEntry {
  /** Folder-relative, forward slashes; a skipped directory ends with `/`. */
  rel: string;
  path: string;
  status: FolderFileStatus;
  size?: number;
  chunks?: number;
  /** Skipped: the reason's code; `reason_text` says it in words, `detail` adds figures. */
  reason?: SkipReason;
  reason_text?: string;
  detail?: string;
  /** Error: the typed code and the message. */
  code?: string;
  message?: string;
}

export interface FolderFilesResponse {
  folder: string;
  show: FileListShow;
  q: string;
  offset: number;
  limit: number;
  /** Entries matching show and q (the pages add up to it). */
  total: number;
  items: FolderFileEntry[];
  /** The whole folder, whatever show and q say. */
  counts: { indexed: number; embedding: number; errors: number; skipped: number };
  skipped_by_reason: Partial<Record<SkipReason, number>>;
  /** The same counts with each reason in words, most frequent first. */
  skipped_reasons: { reason: SkipReason; text: string; count: number }[];
  /** False when the folder skips more entries than are kept by path (the counts stay exact). */
  skipped_listed_all: boolean;
  text_only: boolean;
}
