import { realpath } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import { CairnError } from '../errors.js';

function inside(root: string, p: string): boolean {
  const r = root.endsWith(sep) ? root : root + sep;
  return p === root || p.startsWith(r);
}

/**
 * Resolves a requested path to a real file inside one of the indexed folders, or refuses with
 * `path_outside_folders`. Checked on the literal path (no `..`, no encoded dots, no prefix
 * siblings like `/data-evil` beside `/data`) and again on the real path, so a symlink cannot lead out.
 */
export async function containedPath(requested: string, folders: string[]): Promise<{ path: string; folder: string }> {
  if (typeof requested !== 'string' || requested.length === 0 || requested.includes('\0')) {
    throw new CairnError('invalid_argument', 'path must be a non-empty string', { details: { field: 'path' } });
  }
  const refuse = (why: string) => new CairnError('path_outside_folders', `${requested} is not inside an indexed folder (${why})`, { details: { path: requested } });
  if (/%2e|%2f|%5c/i.test(requested)) throw refuse('encoded path characters');
  if (requested.split(/[\\/]+/).includes('..')) throw refuse('parent segments');
  const candidates = isAbsolute(requested) ? [{ path: resolve(requested), folder: folders.find((f) => inside(f, resolve(requested))) }] : folders.map((f) => ({ path: resolve(f, requested), folder: f }));
  for (const c of candidates) {
    const folder = c.folder;
    if (!folder || !inside(folder, c.path)) continue;
    let real: string;
    try {
      real = await realpath(c.path);
    } catch (err) {
      if (candidates.length > 1) continue;
      throw new CairnError('not_found', `${requested} does not exist`, { cause: err });
    }
    const realRoot = await realpath(folder).catch(() => folder);
    if (!inside(realRoot, real)) throw refuse('a symlink leads out of the folder');
    return { path: c.path, folder };
  }
  if (!isAbsolute(requested)) throw new CairnError('not_found', `${requested} is in no indexed folder`);
  throw refuse('not under any indexed folder');
}
