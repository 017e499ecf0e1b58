import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { FolderSpec } from '../../common/settings.js';
import type { SettingsStore } from '../config/settings-store.js';
import { CairnError } from '../errors.js';
import type { IndexerOptions } from '../ingest/indexer.js';
import { isInside, relativeInside } from '../kernel/scope.js';
import { checkNewFolder } from './check.js';
import { realpathText } from '../kernel/path-bytes.js';

/** The folders the person chose, as the `folders` setting holds them: the one place they change. */
export class FolderRegistry {
  constructor(
    private readonly settings: SettingsStore,
    private readonly dataDir: string,
  ) {}

  specs(): FolderSpec[] {
    return this.settings.get<FolderSpec[]>('folders');
  }

  has(folder: string): boolean {
    return this.specs().some((f) => f.path === folder);
  }

  /** The configured folder at `path` (any spelling of it); `not_found` when there is none. */
  spec(path: string): FolderSpec {
    const p = normalizeFolder(path);
    const spec = this.specs().find((f) => f.path === p);
    if (!spec) throw new CairnError('not_found', `${path} is not an indexed folder`, { details: { path } });
    return spec;
  }

  /** Checks a folder to add and returns its spec as it will be stored; adds nothing. */
  async checkNew(input: FolderSpec): Promise<FolderSpec> {
    // `~` expanded; a relative path, a missing one, a file, an unreadable folder refused in words.
    const path = normalizeFolder(await checkNewFolder(input?.path, { home: homedir() }));
    await this.refuseDataFolder(path);
    const overlap = this.specs().find((f) => isInside(f.path, path) || isInside(path, f.path));
    if (overlap)
      throw new CairnError(
        'conflict',
        overlap.path === path ? `${path} is already indexed` : `${path} overlaps the indexed folder ${overlap.path}`,
        { details: { path: overlap.path } },
      );
    return {
      path,
      include: input.include ?? [],
      exclude: input.exclude ?? [],
      ...(input.include_secrets === true ? { include_secrets: true } : {}),
      ...(input.text_only === true ? { text_only: true } : {}),
    };
  }

  /** Replaces a folder's stored spec (options that change in place: text_only). */
  replace(spec: FolderSpec): void {
    this.settings.set({ folders: this.specs().map((f) => (f.path === spec.path ? spec : f)) });
  }

  /** The rules every folder's files are taken by (walk, file door, read, grep), from one settings read. */
  rules(): IndexerOptions {
    const s = this.settings.snapshot();
    return {
      maxFileBytes: s.get('index.max_file_bytes'),
      respectGitignore: s.get('index.respect_gitignore'),
      extraExcludes: [...s.get<string[]>('index.extra_excludes')],
      // Never part of any folder (sources/filter.ts): the index, the API key, the lock's admin token.
      dataDir: this.dataDir,
    };
  }

  add(spec: FolderSpec): void {
    this.settings.set({ folders: [...this.specs(), spec] });
  }

  remove(folder: string): void {
    this.settings.set({ folders: this.specs().filter((f) => f.path !== folder) });
  }

  /**
   * Cairn's data folder (index, API key, the lock holding the admin token) is never indexed: the
   * folder itself and anything inside it are refused; a folder that contains it is accepted and
   * the data folder is left out of it by the filter (sources/filter.ts).
   */
  private async refuseDataFolder(path: string): Promise<void> {
    const real = (p: string) => realpathText(p).catch(() => p);
    const [folder, data] = await Promise.all([real(path), real(this.dataDir)]);
    for (const [f, d] of [
      [path, resolve(this.dataDir)],
      [folder, data],
    ]) {
      if (relativeInside(d, f) !== null) {
        throw new CairnError(
          'invalid_argument',
          `${path} is Cairn's data folder or inside it (${this.dataDir}); it holds the index and the keys and is never indexed`,
          {
            remedy:
              'Add the folder your files are in; a folder that contains the data folder is fine (the data folder is left out of it).',
            details: { key: 'path', data_dir: this.dataDir },
          },
        );
      }
    }
  }
}

export function normalizeFolder(path: string): string {
  const p = resolve(path);
  return p.length > 1 ? p.replace(/[\\/]+$/, '') : p;
}
