/**
 * One folder's file list, page by page: what the index holds (indexed, waiting for vectors, in
 * error) beside what the walk left out and why (indexer/skip-log.ts), filtered and sorted by path.
 */
import {
  FILE_LIST_LIMIT,
  FILE_LIST_SHOWS,
  SKIP_REASONS,
  type FileListShow,
  type FolderFileEntry,
  type FolderFilesRequest,
  type FolderFilesResponse,
} from '../../common/files.js';
import { CairnError } from '../errors.js';
import type { ListedFileRow } from '../index/file-list.js';
import type { SkipEntry } from '../ingest/skip-log.js';

export interface FileListQuery {
  path: string;
  show: FileListShow;
  q: string;
  offset: number;
  limit: number;
}

function intArg(v: unknown, key: string, min: number, max: number, dflt: number): number {
  if (v === undefined || v === null || v === '') return dflt;
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new CairnError('invalid_argument', `${key} must be a whole number from ${min} to ${max}`, {
      details: { key },
    });
  }
  return n;
}

/** Checks a request from the admin API (query-string values arrive as strings). */
export function parseFileListQuery(req: Partial<Record<keyof FolderFilesRequest, unknown>>): FileListQuery {
  if (typeof req.path !== 'string' || req.path.trim() === '')
    throw new CairnError('invalid_argument', 'path must name an indexed folder', { details: { key: 'path' } });
  const show = req.show === undefined || req.show === '' ? 'all' : req.show;
  if (!FILE_LIST_SHOWS.includes(show as FileListShow)) {
    throw new CairnError('invalid_argument', `show must be one of ${FILE_LIST_SHOWS.join(', ')}`, {
      details: { key: 'show' },
    });
  }
  if (req.q !== undefined && typeof req.q !== 'string')
    throw new CairnError('invalid_argument', 'q must be text', { details: { key: 'q' } });
  return {
    path: req.path,
    show: show as FileListShow,
    q: (req.q ?? '').slice(0, 500),
    offset: intArg(req.offset, 'offset', 0, 1e9, 0),
    limit: intArg(req.limit, 'limit', 1, FILE_LIST_LIMIT.max, FILE_LIST_LIMIT.default),
  };
}

export function listFolderFiles(
  folder: string,
  query: FileListQuery,
  rows: ListedFileRow[],
  skips: { entries: SkipEntry[]; complete: boolean; byReason: FolderFilesResponse['skipped_by_reason']; total: number },
  textOnly: boolean,
): FolderFilesResponse {
  const counts = { indexed: 0, embedding: 0, errors: 0, skipped: skips.total };
  const all: FolderFileEntry[] = [];
  for (const r of rows) {
    if (r.error_code) {
      counts.errors++;
      all.push({
        rel: r.rel,
        path: r.path,
        status: 'error',
        size: r.size,
        code: r.error_code,
        message: r.error_message,
      });
      continue;
    }
    counts.indexed++;
    const waiting = !r.embedded && r.chunks > 0;
    if (waiting && !textOnly) counts.embedding++;
    all.push({
      rel: r.rel,
      path: r.path,
      status: waiting ? (textOnly ? 'text_only' : 'embedding') : 'indexed',
      size: r.size,
      chunks: r.chunks,
    });
  }
  const sep = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  for (const s of skips.entries) {
    all.push({
      rel: s.rel,
      path: `${folder}${sep}${s.rel.replace(/\/$/, '')}`,
      status: 'skipped',
      reason: s.reason,
      reason_text: SKIP_REASONS[s.reason],
      ...(s.detail ? { detail: s.detail } : {}),
    });
  }
  const wanted = (e: FolderFileEntry) => {
    switch (query.show) {
      case 'all':
        return true;
      case 'indexed':
        return e.status === 'indexed' || e.status === 'embedding' || e.status === 'text_only';
      case 'embedding':
        return e.status === 'embedding';
      case 'errors':
        return e.status === 'error';
      case 'skipped':
        return e.status === 'skipped';
    }
  };
  const needle = query.q.toLowerCase();
  const matched = all.filter((e) => wanted(e) && (!needle || e.rel.toLowerCase().includes(needle)));
  matched.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return {
    folder,
    show: query.show,
    q: query.q,
    offset: query.offset,
    limit: query.limit,
    total: matched.length,
    items: matched.slice(query.offset, query.offset + query.limit),
    counts,
    skipped_by_reason: skips.byReason,
    skipped_reasons: (Object.entries(skips.byReason) as [keyof typeof SKIP_REASONS, number][])
      .map(([reason, count]) => ({ reason, text: SKIP_REASONS[reason], count }))
      .sort((a, b) => b.count - a.count),
    skipped_listed_all: skips.complete,
    text_only: textOnly,
  };
}
