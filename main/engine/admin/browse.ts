/**
 * The folder browser of the headless workbench: a web page cannot open a native folder picker
 * that returns a real path, so the engine lists directories for it. Only below the user's home
 * folder (real paths: a symlink that leads out is shown, marked, and not entered), directories
 * only (no file names), each marked with what adding it would mean: Cairn's data folder, already
 * indexed, a credential folder, a built-in exclude. Served inside the admin API, behind its
 * Host/Origin checks and the admin token like every other route.
 */
import { opendir, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BrowseEntry, BrowseResponse } from '../../common/browse.js';
import { CairnError } from '../errors.js';
import { DEFAULT_EXCLUDED_DIRS, SECRET_DIRS } from '../sources/defaults.js';
import { relativeInside } from '../kernel/scope.js';
import { expandHome } from '../folders/check.js';

/** Entries listed per directory; a larger one says it was cut (type the path instead). */
export const BROWSE_MAX_ENTRIES = 2000;

export interface BrowseContext {
  home: string;
  dataDir: string;
  folders: string[];
}

const realOr = (p: string) => realpath(p).catch(() => p);

export async function browseDirectory(requested: string | null, ctx: BrowseContext): Promise<BrowseResponse> {
  const homeReal = await realOr(ctx.home);
  const asked = requested && requested.trim() ? expandHome(requested, ctx.home) : ctx.home;
  let real: string;
  try {
    real = await realpath(asked);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CairnError(
      code === 'ENOENT' ? 'not_found' : 'invalid_argument',
      code === 'ENOENT' ? `There is no folder at ${asked}.` : `Cairn cannot open ${asked}: ${(err as Error).message}`,
      { details: { key: 'path' } },
    );
  }
  if (relativeInside(homeReal, real) === null) {
    throw new CairnError(
      'path_outside_folders',
      `The folder browser shows only your home folder (${ctx.home}) and what is inside it.`,
      {
        remedy: 'Type the full path of a folder elsewhere into the folder box instead.',
        details: { key: 'path', home: ctx.home },
      },
    );
  }
  if (!(await stat(real)).isDirectory())
    throw new CairnError('invalid_argument', `${asked} is not a folder.`, { details: { key: 'path' } });
  const [dataReal, folderReals] = await Promise.all([realOr(ctx.dataDir), Promise.all(ctx.folders.map(realOr))]);
  const entries: BrowseEntry[] = [];
  let truncated = false;
  let dir;
  try {
    dir = await opendir(real);
  } catch (err) {
    throw new CairnError(
      'invalid_argument',
      `Cairn cannot read the folder ${real} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`,
      { details: { key: 'path' } },
    );
  }
  for await (const e of dir) {
    let isDir = e.isDirectory();
    const path = join(real, e.name);
    let target = path;
    if (e.isSymbolicLink()) {
      target = await realOr(path);
      isDir = await stat(target).then(
        (s) => s.isDirectory(),
        () => false,
      );
    }
    if (!isDir) continue;
    if (entries.length >= BROWSE_MAX_ENTRIES) {
      truncated = true;
      break;
    }
    const marks: BrowseEntry['marks'] = [];
    if (relativeInside(dataReal, target) !== null) marks.push('data_folder');
    else if (relativeInside(target, dataReal) !== null) marks.push('contains_data_folder');
    if (folderReals.some((f) => f === target)) marks.push('indexed');
    else if (folderReals.some((f) => relativeInside(f, target) !== null)) marks.push('inside_indexed');
    else if (folderReals.some((f) => relativeInside(target, f) !== null)) marks.push('contains_indexed');
    if (SECRET_DIRS.has(e.name)) marks.push('secret');
    if (DEFAULT_EXCLUDED_DIRS.has(e.name)) marks.push('default_exclude');
    const outside = relativeInside(homeReal, target) === null;
    if (outside) marks.push('outside_home');
    const readable = outside
      ? false
      : await opendir(target).then(
          (d) => d.close().then(() => true),
          () => false,
        );
    entries.push({ name: e.name, path, hidden: e.name.startsWith('.'), readable, marks });
  }
  entries.sort((a, b) => Number(a.hidden) - Number(b.hidden) || a.name.localeCompare(b.name));
  return {
    path: real,
    home: homeReal,
    parent: real === homeReal ? null : dirname(real),
    entries,
    truncated,
  };
}
