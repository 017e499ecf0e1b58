/**
 * Steps 2 and 3 of the file door (access.ts): open a path once without following a final symlink
 * blindly, and name the file the descriptor really holds. Separate from the rules so that the
 * door reads as the four steps; nothing here knows about folders.
 */
import { constants, existsSync, openSync, statSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { fsPath, readlinkText, readlinkTextSync, realpathText, realpathTextSync } from '../kernel/path-bytes.js';

const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** The file changed under us between the open and the check (an editor's atomic save): the caller retries. */
export class Raced extends Error {}

/**
 * Linux: a name can be opened inside a directory this process holds open, as openat(dirfd, name)
 * would: `/proc/self/fd/D/name` resolves from the held directory itself, whatever its path names now.
 */
export const HELD_DIRS = PROC_FD;

/** A directory's descriptor (following links: where it really is is read from the descriptor). */
export function openDirSync(abs: string): number {
  return openSync(fsPath(abs), constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
}

/** Opens `name`, one path component, in the directory `dirFd` holds; a final symlink fails with ELOOP. */
export function openInDirSync(dirFd: number, name: string): number {
  return openSync(fsPath(`/proc/self/fd/${dirFd}/${name}`), FLAGS);
}

export function openNoFollowSync(abs: string, resolveLink: () => string): number {
  try {
    return openSync(fsPath(abs), FLAGS);
  } catch (err) {
    // ELOOP: the last component is a symlink. Its target is opened the same way, and checked below
    // like any file; a link to a link to ... is resolved by realpath, the open still refuses to follow.
    if ((err as NodeJS.ErrnoException).code !== 'ELOOP') throw err;
    return openSync(fsPath(resolveLink()), FLAGS);
  }
}

export async function openNoFollow(abs: string): Promise<FileHandle> {
  try {
    return await open(fsPath(abs), FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOOP') throw err;
    return open(fsPath(await realpathText(abs)), FLAGS);
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

export function descriptorPathSync(fd: number, abs: string, st: Stats): string {
  if (PROC_FD) {
    // As bytes, then Cairn's text: a lossy string would put a name that is not UTF-8 outside every folder.
    const p = readlinkTextSync(`/proc/self/fd/${fd}`);
    // An unlinked file reads "… (deleted)": it is in no folder any more.
    if (!p.startsWith('/') || p.endsWith(' (deleted)')) throw new Raced();
    return p;
  }
  let real: string;
  try {
    real = realpathTextSync(abs);
    if (!sameFile(statSync(fsPath(real)), st)) throw new Raced();
  } catch (err) {
    if (err instanceof Raced) throw err;
    throw new Raced();
  }
  return real;
}

export async function descriptorPath(fd: number, abs: string, st: Stats): Promise<string> {
  if (PROC_FD) {
    const p = await readlinkText(`/proc/self/fd/${fd}`);
    if (!p.startsWith('/') || p.endsWith(' (deleted)')) throw new Raced();
    return p;
  }
  try {
    const real = await realpathText(abs);
    if (!sameFile(await stat(fsPath(real)), st)) throw new Raced();
    return real;
  } catch {
    throw new Raced();
  }
}
