/**
 * A folder someone wants to add, checked before it is saved, each refusal in plain words with
 * what to do: `~` is expanded (the README's own examples use it), a relative path, a path that is
 * not there, a file rather than a folder, a folder Cairn may not read. The data folder itself is
 * refused by the engine (engine.ts refuseDataFolder), after these.
 */
import { opendir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { CairnError } from '../errors.js';
import { fsPath } from '../kernel/path-bytes.js';

export interface FolderCheckContext {
  /** The user's home folder, for `~`. */
  home: string;
}

function refuse(message: string, remedy: string, path: string): CairnError {
  return new CairnError('invalid_argument', message, { remedy, details: { key: 'path', path } });
}

/** `~` and `~/x` become the home folder; `~other` is refused (whose home it is depends on who asks). */
export function expandHome(input: string, home: string): string {
  const p = input.trim();
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return join(home, p.slice(2));
  return p;
}

function kindOf(st: Awaited<ReturnType<typeof stat>>): string {
  if (st.isFile()) return 'a file';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a folder';
}

/** The absolute, normalised folder path to save; throws `invalid_argument` with a remedy otherwise. */
export async function checkNewFolder(input: unknown, ctx: FolderCheckContext): Promise<string> {
  if (typeof input !== 'string' || input.trim() === '') {
    throw refuse(
      'No folder was given.',
      'Type the full path of a folder (for example /home/me/notes), or choose one with Browse.',
      '',
    );
  }
  const raw = input.trim();
  if (/^~[^/\\]/.test(raw)) {
    throw refuse(
      `${raw} names another user's home folder; Cairn expands ~ only as your own home (${ctx.home}).`,
      'Write the full path instead, starting with /.',
      raw,
    );
  }
  const expanded = expandHome(raw, ctx.home);
  if (!isAbsolute(expanded) && !/^[A-Za-z]:[\\/]/.test(expanded)) {
    throw refuse(
      `${raw} is a relative path, and Cairn cannot tell what it is relative to.`,
      `Give the full path, for example ${join(ctx.home, raw)}.`,
      raw,
    );
  }
  const path = resolve(expanded).replace(/(.)[\\/]+$/, '$1');
  let st;
  try {
    st = await stat(fsPath(path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      const parent = dirname(path);
      const parentThere = await stat(fsPath(parent)).then(
        (s) => s.isDirectory(),
        () => false,
      );
      throw refuse(
        `There is no folder at ${path}.`,
        parentThere
          ? `Check the spelling (${parent} exists, ${basename(path)} is not in it), or create the folder first.`
          : 'Check the spelling, or create the folder first.',
        path,
      );
    }
    if (code === 'ENOTDIR')
      throw refuse(`${path} is not a folder: part of that path is a file.`, 'Give the path of a folder.', path);
    if (code === 'EACCES' || code === 'EPERM') {
      throw refuse(
        `Cairn may not look at ${path} (permission denied on a folder above it).`,
        'Add a folder your user can open, or give your user access (chmod u+rx on each folder of the path).',
        path,
      );
    }
    throw refuse(`Cairn cannot check ${path}: ${(err as Error).message}.`, 'Check the path, then try again.', path);
  }
  if (!st.isDirectory()) {
    const kind = kindOf(st);
    throw refuse(
      `${path} is ${kind}, not a folder.`,
      st.isFile()
        ? `Add the folder it is in (${dirname(path)}); to index only this file there, give the include glob ${basename(path)}.`
        : 'Give the path of a folder.',
      path,
    );
  }
  try {
    const dir = await opendir(fsPath(path));
    await dir.close();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw refuse(
      `Cairn cannot read the folder ${path}${code === 'EACCES' || code === 'EPERM' ? ' (permission denied)' : `: ${(err as Error).message}`}, so none of its files could be indexed.`,
      'Give your user read access to it (chmod u+rx), or add another folder.',
      path,
    );
  }
  return path;
}
