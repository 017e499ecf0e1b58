/**
 * The `read` tool's own containment check. The engine checks too, but a tool that hands a path
 * to the engine unchecked would fail open the day the engine's check regresses; this one refuses
 * first. Every refusal is `path_outside_folders`, whatever the trick.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, normalize, resolve, sep } from 'node:path';
import { CairnError } from '../errors.js';

function outside(path: string, why: string): CairnError {
  return new CairnError('path_outside_folders', `${path} is not inside an indexed folder (${why})`, {
    remedy: 'Pass an absolute path that search or grep returned, inside one of the indexed folders.',
    details: { path },
  });
}

/** True when `child` is `parent` or below it; `/data-evil` is not below `/data`. */
export function isWithin(child: string, parent: string): boolean {
  const p = parent.endsWith(sep) ? parent : parent + sep;
  return child === parent || child.startsWith(p);
}

/**
 * Resolves `input` to an absolute path inside one of `folders`, following symlinks, or throws
 * `path_outside_folders`. A missing file is `not_found` only once the lexical checks passed, so
 * probing for files outside the folders learns nothing.
 */
export async function containedPath(input: string, folders: readonly string[]): Promise<{ path: string; folder: string }> {
  if (input.includes('\0')) throw outside(input, 'NUL byte');
  if (/%(2e|2f|5c|00)/i.test(input)) throw outside(input, 'percent-encoded characters are not decoded');
  if (!isAbsolute(input)) throw outside(input, 'not an absolute path');
  if (input.split(/[\\/]+/).some((seg) => seg === '..' || seg === '.')) throw outside(input, 'dot segments');
  const lexical = resolve(normalize(input));
  const folder = folders.map((f) => resolve(f)).find((f) => isWithin(lexical, f));
  if (!folder) throw outside(input, 'no indexed folder contains it');
  let real: string;
  let realFolder: string;
  try {
    realFolder = await realpath(folder);
    real = await realpath(lexical);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CairnError('not_found', `${input} does not exist`, { remedy: 'Search again; the file may have moved.' });
    }
    throw outside(input, `cannot resolve: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (!isWithin(real, realFolder)) throw outside(input, 'a symlink leads out of the folder');
  return { path: lexical, folder };
}
