import { lstat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { FolderSpec } from '../../common/settings.js';
import { CairnError } from '../errors.js';
import { relativeInside } from '../sources/filter.js';

/**
 * Which folder a requested path names, judged on the literal path only (no `..`, no encoded
 * dots, no prefix siblings like `/data-evil` beside `/data`). Where it really leads, and whether
 * the folder's rules admit it, is the file door's job (sources/access.ts), which checks the opened
 * descriptor: a check on the path here would say nothing about what a later open finds.
 */
export async function containedPath(requested: string, folders: readonly FolderSpec[]): Promise<{ path: string; folder: FolderSpec }> {
  if (typeof requested !== 'string' || requested.length === 0 || requested.includes('\0')) {
    throw new CairnError('invalid_argument', 'path must be a non-empty string', { details: { key: 'path' } });
  }
  const refuse = (why: string) => new CairnError('path_outside_folders', `${requested} is not inside an indexed folder (${why})`, { details: { path: requested } });
  if (/%2e|%2f|%5c|%00/i.test(requested)) throw refuse('encoded path characters');
  if (requested.split(/[\\/]+/).includes('..')) throw refuse('parent segments');
  const inside = (f: FolderSpec, p: string) => {
    const rel = relativeInside(resolve(f.path), p);
    return rel !== null && rel !== '';
  };
  if (isAbsolute(requested)) {
    const path = resolve(requested);
    const folder = folders.find((f) => inside(f, path));
    if (!folder) throw refuse('not under any indexed folder');
    return { path, folder };
  }
  const candidates = folders.map((f) => ({ path: resolve(f.path, requested), folder: f })).filter((c) => inside(c.folder, c.path));
  // A folder-relative path: the first folder that has an entry of that name (not followed: the door does that).
  for (const c of candidates) if (await lstat(c.path).then(() => true, () => false)) return c;
  throw new CairnError('not_found', `${requested} is in no indexed folder`, { details: { path: requested } });
}
