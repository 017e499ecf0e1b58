import picomatch from 'picomatch';
import { dateSql, filterSql, type RowFilter } from '../index/row-filter.js';
import type { ValidSearch } from './validate.js';

const KINDS = new Set(['text', 'markdown', 'code', 'html', 'pdf', 'docx', 'data']);

/**
 * The part of the filters LanceDB can apply before ranking (prefilter), structured: the sparse
 * leg tests it in memory, every other reader gets its SQL (whereClause). `folders` null: every
 * indexed folder, no folder clause (it doubles the cost of both the full-text and the vector
 * search; the searcher still drops any row outside the folders, see inFolders).
 */
export function rowFilter(s: ValidSearch, folders: string[] | null, dates = true): RowFilter | undefined {
  const f: RowFilter = {};
  if (folders !== null) f.folders = folders;
  if (s.fileTypes.length > 0)
    f.types = { kinds: s.fileTypes.filter((t) => KINDS.has(t)), exts: s.fileTypes.filter((t) => !KINDS.has(t)) };
  if (dates && s.modifiedAfter !== null) f.mtimeFrom = s.modifiedAfter;
  if (dates && s.modifiedBefore !== null) f.mtimeTo = s.modifiedBefore;
  return Object.keys(f).length > 0 ? f : undefined;
}

/** rowFilter as SQL, for the legs that ask LanceDB. */
export function whereClause(s: ValidSearch, folders: string[] | null, dates = true): string | undefined {
  return filterSql(rowFilter(s, folders, dates));
}

/** Date filters alone; vectors keep the mtime of when they were computed, so dates are checked on chunks. */
export function dateClause(s: ValidSearch): string | undefined {
  return dateSql({
    mtimeFrom: s.modifiedAfter ?? undefined,
    mtimeTo: s.modifiedBefore ?? undefined,
  });
}

/**
 * Ordered path globs, evaluated against the folder-relative path: the last glob that matches
 * decides (a leading `!` excludes). With only negative globs, everything else is included.
 */
export function globMatcher(globs: string[]): ((rel: string) => boolean) | null {
  if (globs.length === 0) return null;
  const rules = globs.map((g) => {
    const negate = g.startsWith('!');
    const pattern = negate ? g.slice(1) : g;
    const m = picomatch(pattern, { dot: true, matchBase: !pattern.includes('/') });
    return { negate, m };
  });
  const defaultInclude = rules.every((r) => r.negate);
  return (rel: string) => {
    let keep = defaultInclude;
    for (const r of rules) if (r.m(rel)) keep = !r.negate;
    return keep;
  };
}

/** Whether an absolute path lies in one of the folders (the last line of defence of the scope). */
export { inFolders } from '../kernel/scope.js';
