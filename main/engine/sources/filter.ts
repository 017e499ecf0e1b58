import { join } from 'node:path';
import { relativeInside } from '../kernel/scope.js';
import type { FolderSpec } from '../../common/settings.js';
import {
  BINARY_EXTENSIONS,
  DEFAULT_EXCLUDED_DIRS,
  DEFAULT_EXCLUDED_FILES,
  extensionOf,
  isMinifiedName,
  isSecretPath,
} from './defaults.js';
import { GlobList } from './globs.js';
import { ignoredByLevels, loadIgnoreLevelSync, type IgnoreLevel } from './ignore-files.js';
import { realpathTextSync } from '../kernel/path-bytes.js';

export interface FilterOptions {
  respectGitignore: boolean;
  extraExcludes: readonly string[];
  /**
   * Cairn's own data folder (index, API key, lock with the admin token): never part of any folder.
   * Left out automatically where a folder contains it; a folder inside it admits nothing.
   */
  dataDir?: string;
}

function realOrSelf(p: string): string {
  try {
    return realpathTextSync(p);
  } catch {
    return p;
  }
}

/** Why a path is left out, or null when it is accepted. */
export type RejectReason =
  'default exclude' | 'secret' | 'data folder' | 'binary' | 'minified' | 'excluded' | 'not included' | 'ignored';

/**
 * The folder's name-based rules (built-in excludes, include/exclude globs, extra excludes, ignore
 * files). The walk and the file watcher share it so both agree on what belongs to the index.
 * Content checks (size, NUL sniff, symlinks) need the file and live in the walk.
 */
export class FolderFilter {
  readonly root: string;
  private readonly include: GlobList;
  private readonly exclude: GlobList;
  private readonly respectGitignore: boolean;
  private readonly keepSecrets: boolean;
  /** Folder-relative paths of the data folder (lexical and real), when the folder contains it. */
  private readonly dataRels: ReadonlySet<string>;
  /** The folder lies inside the data folder: nothing in it belongs to any index. */
  readonly insideDataFolder: boolean;
  /** Ignore files read for `accepts`, by folder-relative dir; `invalidate` drops them. */
  private readonly levelCache = new Map<string, IgnoreLevel | null>();

  constructor(spec: FolderSpec, opts: FilterOptions) {
    this.root = spec.path;
    this.include = new GlobList(spec.include ?? []);
    this.exclude = new GlobList([...(spec.exclude ?? []), ...opts.extraExcludes]);
    this.respectGitignore = opts.respectGitignore;
    this.keepSecrets = spec.include_secrets !== true;
    const rels = new Set<string>();
    let inside = false;
    if (opts.dataDir) {
      const pairs = [
        [spec.path, opts.dataDir],
        [realOrSelf(spec.path), realOrSelf(opts.dataDir)],
      ];
      for (const [folder, data] of pairs) {
        const rel = relativeInside(folder, data);
        if (rel === '' || relativeInside(data, folder) !== null) inside = true;
        else if (rel !== null) rels.add(rel);
      }
    }
    this.dataRels = rels;
    this.insideDataFolder = inside;
  }

  get honoursIgnoreFiles(): boolean {
    return this.respectGitignore;
  }

  /**
   * Rules for one entry, given the ignore levels of its ancestors (the walk keeps those as it goes).
   * Does not look at ancestors' own exclusion: the walk never enters an excluded directory.
   */
  rejectEntry(rel: string, isDir: boolean, levels: readonly IgnoreLevel[]): RejectReason | null {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (this.insideDataFolder || this.dataRels.has(rel)) return 'data folder';
    if (this.keepSecrets && isSecretPath(rel, isDir)) return 'secret';
    if (isDir) {
      if (DEFAULT_EXCLUDED_DIRS.has(name)) return 'default exclude';
      if (this.exclude.coversDir(rel)) return 'excluded';
    } else {
      if (DEFAULT_EXCLUDED_FILES.has(name)) return 'default exclude';
      if (isMinifiedName(name)) return 'minified';
      if (BINARY_EXTENSIONS.has(extensionOf(name))) return 'binary';
      if (this.exclude.matches(rel)) return 'excluded';
      if (this.include.size > 0 && !this.include.matches(rel)) return 'not included';
    }
    if (this.respectGitignore && levels.length > 0 && ignoredByLevels(levels, rel, isDir)) return 'ignored';
    return null;
  }

  /** For the watcher: whether a folder-relative path (forward slashes) belongs to the index by name. */
  accepts(relPath: string, isDir: boolean): boolean {
    return this.reject(relPath, isDir) === null;
  }

  reject(relPath: string, isDir: boolean): RejectReason | null {
    const rel = relPath
      .replace(/\\/g, '/')
      .replace(/^\.?\/+/, '')
      .replace(/\/+$/, '');
    if (rel === '') return this.insideDataFolder ? 'data folder' : null;
    const parts = rel.split('/');
    const levels: IgnoreLevel[] = [];
    const rootLevel = this.levelFor('');
    if (rootLevel) levels.push(rootLevel);
    for (let i = 0; i < parts.length; i++) {
      const sub = parts.slice(0, i + 1).join('/');
      const last = i === parts.length - 1;
      const why = this.rejectEntry(sub, last ? isDir : true, levels);
      if (why) return why;
      if (!last) {
        const level = this.levelFor(sub);
        if (level) levels.push(level);
      }
    }
    return null;
  }

  /** Forget cached ignore files (all, or one directory's) after a `.gitignore`/`.ignore` changed. */
  invalidate(relDir?: string): void {
    if (relDir === undefined) this.levelCache.clear();
    else this.levelCache.delete(relDir.replace(/\/+$/, ''));
  }

  private levelFor(relDir: string): IgnoreLevel | null {
    if (!this.respectGitignore) return null;
    if (!this.levelCache.has(relDir)) this.levelCache.set(relDir, loadIgnoreLevelSync(join(this.root, relDir), relDir));
    return this.levelCache.get(relDir) ?? null;
  }
}
