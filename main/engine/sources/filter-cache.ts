import type { FolderSpec } from '../../common/settings.js';
import { FolderFilter, type FilterOptions } from './filter.js';

/**
 * One FolderFilter per folder, shared by the watcher and the indexer's watcher updates: its ignore
 * files are read once and kept until one of them changes (the watcher says so), instead of a new
 * filter (and a sync read of every `.gitignore` above the path) for each changed path. A filter is
 * made again when the folder's rules or the index settings it depends on change.
 */
export class FilterCache {
  private readonly filters = new Map<string, { key: string; filter: FolderFilter }>();

  constructor(private readonly options: () => FilterOptions) {}

  get(spec: FolderSpec): FolderFilter {
    const opts = this.options();
    const key = JSON.stringify([
      spec.include ?? [],
      spec.exclude ?? [],
      spec.include_secrets === true,
      opts.respectGitignore,
      opts.extraExcludes,
      opts.dataDir ?? '',
    ]);
    const hit = this.filters.get(spec.path);
    if (hit?.key === key) return hit.filter;
    const filter = new FolderFilter(spec, opts);
    this.filters.set(spec.path, { key, filter });
    return filter;
  }

  /** An ignore file changed somewhere in the folder: its rules are read again on next use. */
  invalidate(folder: string): void {
    this.filters.get(folder)?.filter.invalidate();
  }

  forget(folder: string): void {
    this.filters.delete(folder);
  }
}
