import { and, sqlIn } from './sql.js';

/**
 * A search's filter on the text tables' origin columns (index/schema.ts), kept structured so it
 * can be both written as SQL (for LanceDB) and tested in memory on the same columns (the sparse
 * leg's in-memory BM25, index/sparse-memory.ts): one value, two exact readings of it.
 */
export interface RowFilter {
  /** `folder IN (...)`; an empty list matches nothing. */
  folders?: readonly string[];
  /** File types: `kind IN (...) OR ext IN (...)`, the part of either list that is not empty. */
  types?: { kinds: readonly string[]; exts: readonly string[] };
  /** `mtime >= from` and `mtime <= to`. */
  mtimeFrom?: number;
  mtimeTo?: number;
  /** `path IN (...)`: a search of some files' chunks (search/legs.ts, bestChunks). */
  paths?: readonly string[];
}

export interface FilteredRow {
  folder: string;
  path: string;
  kind: string;
  ext: string;
  mtime: number;
}

function typeSql(t: RowFilter['types']): string | undefined {
  if (!t || (t.kinds.length === 0 && t.exts.length === 0)) return undefined;
  return [t.kinds.length ? sqlIn('kind', t.kinds) : '', t.exts.length ? sqlIn('ext', t.exts) : '']
    .filter(Boolean)
    .join(' OR ');
}

export function dateSql(f: RowFilter | undefined): string | undefined {
  return and(
    f?.mtimeFrom !== undefined && `mtime >= ${f.mtimeFrom}`,
    f?.mtimeTo !== undefined && `mtime <= ${f.mtimeTo}`,
  );
}

/** The filter as a LanceDB `where` (undefined: no filter). */
export function filterSql(f: RowFilter | undefined): string | undefined {
  if (!f) return undefined;
  return and(
    f.folders !== undefined && sqlIn('folder', f.folders),
    typeSql(f.types),
    dateSql(f),
    f.paths !== undefined && sqlIn('path', f.paths),
  );
}

/** The filter as a test of a row's origin columns, true exactly where filterSql's clause is. */
export function filterTest(f: RowFilter): (r: FilteredRow) => boolean {
  const folders = f.folders && new Set(f.folders);
  const paths = f.paths && new Set(f.paths);
  const kinds = f.types && f.types.kinds.length + f.types.exts.length > 0 ? new Set(f.types.kinds) : undefined;
  const exts = kinds ? new Set(f.types?.exts) : undefined;
  const from = f.mtimeFrom;
  const to = f.mtimeTo;
  return (r) =>
    (!folders || folders.has(r.folder)) &&
    (!paths || paths.has(r.path)) &&
    (!kinds || kinds.has(r.kind) || (exts?.has(r.ext) ?? false)) &&
    (from === undefined || r.mtime >= from) &&
    (to === undefined || r.mtime <= to);
}

/** The filter narrowed to some files (undefined filter: those files only). */
export function withPaths(f: RowFilter | undefined, paths: readonly string[]): RowFilter {
  if (f?.paths) {
    const wanted = new Set(paths);
    return { ...f, paths: f.paths.filter((p) => wanted.has(p)) };
  }
  return { ...f, paths };
}
