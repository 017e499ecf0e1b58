/**
 * The `read` tool's own lexical check. The engine checks too, but a tool that hands a path to the
 * engine unchecked would fail open the day the engine's check regresses; this one refuses first.
 * Every refusal is `path_outside_folders`, whatever the trick. Where the path really leads (links,
 * races) is decided once, on the opened descriptor, by the file door (sources/access.ts): a
 * realpath here would only be a check the next open does not have to agree with.
 */
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
 * Resolves `input` to an absolute path lexically inside one of `folders`, or throws
 * `path_outside_folders`. Existence, symlinks and the folder's rules are the engine's door's to judge.
 */
export async function containedPath(input: string, folders: readonly string[]): Promise<{ path: string; folder: string }> {
  if (input.includes('\0')) throw outside(input, 'NUL byte');
  if (/%(2e|2f|5c|00)/i.test(input)) throw outside(input, 'percent-encoded characters are not decoded');
  if (!isAbsolute(input)) throw outside(input, 'not an absolute path');
  if (input.split(/[\\/]+/).some((seg) => seg === '..' || seg === '.')) throw outside(input, 'dot segments');
  const lexical = resolve(normalize(input));
  const folder = folders.map((f) => resolve(f)).find((f) => isWithin(lexical, f) && lexical !== f);
  if (!folder) throw outside(input, 'no indexed folder contains it');
  return { path: lexical, folder };
}
