/**
 * The one way Cairn touches a user's file: `read`, `grep` and the indexer all open through here.
 *
 * What it guarantees: the bytes returned come from a regular file that, at a moment after it was
 * opened, was reachable by a path inside the folder that the folder's rules admit, whatever
 * symlinks, renames or FIFOs an attacker with write access to the folder swaps in meanwhile.
 *
 * How, given that Node has no openat() (so a path is always resolved again by the kernel and a
 * check made on one resolution says nothing about the next):
 * 1. The path asked for is judged lexically: inside the folder, and admitted by its rules (built-in
 *    and secret excludes, globs, ignore files, the data folder) under the name it was asked by.
 * 2. It is opened ONCE, `O_RDONLY | O_NOFOLLOW | O_NONBLOCK`: a final symlink is not followed blindly
 *    (it is resolved and its target opened the same way, so in-folder links still work), and a FIFO
 *    or device cannot park the thread in open(). `fstat` of the descriptor must say regular file.
 * 3. The DESCRIPTOR is checked, not the path: on Linux `/proc/self/fd/N` names the file the kernel
 *    actually opened (symlink flips cannot change what it says), and that name must lie inside the
 *    folder's real path and be admitted by the rules too, so a link is followed only to a target
 *    the folder itself would index. The synchronous opens (openSync: grep's workers, many files per
 *    directory; the parse workers, one file per call) check the directory instead, once: its
 *    descriptor is held, its /proc name must lie inside the folder,
 *    and each file is then opened by name from that very directory (`/proc/self/fd/D/name`, an
 *    openat) without following a final symlink, so its real path is the directory's plus its name
 *    (a final symlink, or a directory that cannot be held, takes the per-file way). What changes:
 *    the file was an entry of a directory that was inside the folder when checked, just before,
 *    rather than a name inside it just after; a flip of any path component cannot change which
 *    directory is held. Where there is no /proc (macOS, Windows) the fallback resolves
 *    the path again after opening and requires the same device and inode there; that leaves a
 *    narrower window (a component flipped between that realpath and its stat), said in the README.
 * 4. All reads come from that descriptor, bounded by the size limit.
 * A hard link inside the folder is the same file as its other names: it is served as in-folder
 * content (the kernel's protected_hardlinks stops other users linking files they cannot write).
 */
import { closeSync, fstatSync, readSync, type Stats } from 'node:fs';
import { lstat, type FileHandle } from 'node:fs/promises';
import { isAbsolute, normalize, resolve, sep } from 'node:path';
import type { FolderSpec } from '../../common/settings.js';
import type { ErrorCode } from '../../common/errors.js';
import { CairnError } from '../errors.js';
import { DOCUMENT_EXTENSIONS, SNIFF_BYTES, extensionOf, looksBinary } from './defaults.js';
import { FolderFilter, type FilterOptions, type RejectReason } from './filter.js';
import { WholeFile } from './whole-file.js';
import { pathTrick, relativeInside } from '../kernel/scope.js';
import { fsPath, readlinkTextSync, realpathText, realpathTextSync } from '../kernel/path-bytes.js';
import {
  HELD_DIRS,
  Raced,
  descriptorPath,
  descriptorPathSync,
  openDirSync,
  openInDirSync,
  openNoFollow,
  openNoFollowSync,
} from './descriptor.js';

export interface AccessOptions extends FilterOptions {
  maxFileBytes: number;
}

/** An empty, `.` or `..` path segment: a name that is not normal. */
const ODD_SEGMENT = /(^|\/)\.{0,2}(\/|$)/;

/** Retries when the file changed under us between the open and the check (an editor's atomic save). */
const ATTEMPTS = 3;

function refusal(code: ErrorCode, path: string, why: string, details: Record<string, unknown> = {}): CairnError {
  const remedy =
    code === 'path_outside_folders'
      ? "Pass a path that search or grep returned; files the folder's rules leave out are never served."
      : undefined;
  return new CairnError(code, `${path}: ${why}`, { remedy, details: { path, ...details } });
}

function fsRefusal(path: string, err: unknown): CairnError {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT' || e?.code === 'ENOTDIR')
    return new CairnError('not_found', `${path} does not exist`, { details: { path, errno: e.code }, cause: err });
  if (e?.code === 'EACCES' || e?.code === 'EPERM')
    return new CairnError('forbidden', `cannot read ${path}: permission denied (${e.code})`, {
      details: { path, errno: e.code },
      cause: err,
    });
  return new CairnError('internal', `cannot read ${path}: ${e?.message ?? String(err)}`, {
    details: { path, errno: e?.code },
    cause: err,
  });
}

/** A file opened and checked; `close` must be called. */
export interface OpenedSync {
  fd: number;
  stat: Stats;
  /** Folder-relative path of the file the descriptor names. */
  realRel: string;
}

/** One folder's door: built per call (a grep, a read, an index job) from plain data, so workers can build it too. */
export class FolderAccess {
  readonly filter: FolderFilter;
  private rootReal: string | null = null;
  /** The folder's normal path with a final slash. */
  private prefix: string | null = null;
  /** The directory openSync opens files in, held and checked once (step 3); see release(). */
  private held: { abs: string; fd: number; realRel: string } | null = null;

  constructor(
    readonly spec: FolderSpec,
    readonly opts: AccessOptions,
  ) {
    this.filter = new FolderFilter(spec, opts);
  }

  /** Folder-relative path of an absolute path that lies lexically in the folder, else null. */
  lexicalRel(abs: string): string | null {
    // Grep asks per file, by the walk's names, which are normal already: the rest after the folder's
    // prefix is the answer when no segment is empty, `.` or `..` (else the general way decides).
    this.prefix ??= normalize(this.spec.path).replace(/\/?$/, '/');
    if (sep === '/' && abs.startsWith(this.prefix)) {
      const rest = abs.slice(this.prefix.length);
      if (!rest.startsWith('..') && !ODD_SEGMENT.test(rest)) return rest;
    }
    if (!isAbsolute(abs)) return null;
    return relativeInside(normalize(this.spec.path), resolve(abs));
  }

  /** Why the rules leave a folder-relative file out, or null. */
  rejects(rel: string): RejectReason | null {
    return this.filter.reject(rel, false);
  }

  private root(): string {
    this.rootReal ??= realpathTextSync(this.spec.path);
    return this.rootReal;
  }

  /** Step 1: the name asked for. `nameChecked` skips the rules when the caller's walk applied them to this very name. */
  private admitName(abs: string, nameChecked: boolean): string {
    if (this.filter.insideDataFolder)
      throw refusal('path_outside_folders', abs, "the folder lies inside Cairn's data folder", {
        reason: 'data folder',
      });
    const rel = this.lexicalRel(abs);
    if (rel === null || rel === '') throw refusal('path_outside_folders', abs, 'not inside the folder');
    if (!nameChecked) {
      const why = this.rejects(rel);
      if (why) throw refusal('path_outside_folders', abs, `left out by the folder's rules (${why})`, { reason: why });
    }
    return rel;
  }

  /** Step 3: where the descriptor really is. */
  private admitTarget(abs: string, lexRel: string, real: string): string {
    return this.admitRealRel(abs, lexRel, relativeInside(this.root(), real));
  }

  private admitRealRel(abs: string, lexRel: string, realRel: string | null): string {
    if (realRel === null || realRel === '')
      throw refusal('path_outside_folders', abs, 'a symlink leads out of the folder', {
        reason: 'symlink outside the folder',
      });
    if (realRel !== lexRel) {
      const why = this.rejects(realRel);
      if (why)
        throw refusal('path_outside_folders', abs, `a symlink leads to a file the folder's rules leave out (${why})`, {
          reason: why,
        });
    }
    return realRel;
  }

  private checkStat(abs: string, st: Stats): void {
    if (!st.isFile()) throw refusal('invalid_argument', abs, 'not a regular file', { reason: 'not a regular file' });
    if (st.size > this.opts.maxFileBytes)
      throw refusal(
        'invalid_argument',
        abs,
        `too large (${st.size} bytes > ${this.opts.maxFileBytes}, index.max_file_bytes)`,
        { reason: 'too large' },
      );
  }

  /** Opens and checks a file synchronously (grep's workers: a thread-pool round trip per syscall costs more than the syscall). */
  openSync(abs: string, nameChecked = false): OpenedSync {
    const lexRel = this.admitName(abs, nameChecked);
    const inHeld = HELD_DIRS ? this.openInHeld(abs, lexRel) : null;
    if (inHeld) return inHeld;
    for (let attempt = 1; ; attempt++) {
      let fd: number;
      try {
        fd = openNoFollowSync(abs, () => realpathTextSync(abs));
      } catch (err) {
        throw fsRefusal(abs, err);
      }
      try {
        const st = fstatSync(fd);
        const realRel = this.admitTarget(abs, lexRel, descriptorPathSync(fd, abs, st));
        this.checkStat(abs, st);
        return { fd, stat: st, realRel };
      } catch (err) {
        closeSync(fd);
        if (err instanceof Raced && attempt < ATTEMPTS) continue;
        if (err instanceof Raced)
          throw refusal('path_outside_folders', abs, 'the file kept changing while it was opened', { reason: 'raced' });
        throw err instanceof CairnError ? err : fsRefusal(abs, err);
      }
    }
  }

  /** Steps 2 and 3 by the held directory (header, step 3); null when the per-file way must decide. */
  private openInHeld(abs: string, lexRel: string): OpenedSync | null {
    const slash = abs.lastIndexOf('/');
    const name = abs.slice(slash + 1);
    if (slash <= 0 || name === '' || name === '.' || name === '..') return null;
    const dir = this.hold(abs.slice(0, slash));
    if (!dir) return null;
    let fd: number;
    try {
      fd = openInDirSync(dir.fd, name);
    } catch (err) {
      // A final symlink: resolved and checked per file, as any link.
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') return null;
      throw fsRefusal(abs, err);
    }
    try {
      const st = fstatSync(fd);
      const realRel = this.admitRealRel(abs, lexRel, dir.realRel === '' ? name : `${dir.realRel}/${name}`);
      this.checkStat(abs, st);
      return { fd, stat: st, realRel };
    } catch (err) {
      closeSync(fd);
      throw err instanceof CairnError ? err : fsRefusal(abs, err);
    }
  }

  /** The directory `dir` opened and checked inside the folder, kept for the files after it; null when it is not. */
  private hold(dir: string): { fd: number; realRel: string } | null {
    if (this.held?.abs === dir) return this.held;
    this.release();
    let fd: number;
    try {
      fd = openDirSync(dir);
    } catch {
      return null;
    }
    let realRel: string | null = null;
    try {
      const real = readlinkTextSync(`/proc/self/fd/${fd}`);
      if (real.startsWith('/') && !real.endsWith(' (deleted)')) realRel = relativeInside(this.root(), real);
    } catch {
      // Unnamed: the per-file way decides.
    }
    if (realRel === null) {
      closeSync(fd);
      return null;
    }
    this.held = { abs: dir, fd, realRel };
    return this.held;
  }

  /** Closes the directory openSync holds. Callers release after each batch: a held directory is checked once. */
  release(): void {
    if (!this.held) return;
    closeSync(this.held.fd);
    this.held = null;
  }

  /** The same, with the thread pool (main thread and parse workers). */
  async open(abs: string, nameChecked = false): Promise<{ fh: FileHandle; stat: Stats; realRel: string }> {
    const lexRel = this.admitName(abs, nameChecked);
    for (let attempt = 1; ; attempt++) {
      let fh: FileHandle;
      try {
        fh = await openNoFollow(abs);
      } catch (err) {
        throw fsRefusal(abs, err);
      }
      try {
        const st = await fh.stat();
        const realRel = this.admitTarget(abs, lexRel, await descriptorPath(fh.fd, abs, st));
        this.checkStat(abs, st);
        return { fh, stat: st, realRel };
      } catch (err) {
        await fh.close();
        if (err instanceof Raced && attempt < ATTEMPTS) continue;
        if (err instanceof Raced)
          throw refusal('path_outside_folders', abs, 'the file kept changing while it was opened', { reason: 'raced' });
        throw err instanceof CairnError ? err : fsRefusal(abs, err);
      }
    }
  }

  /** A whole admitted file's bytes, read from the checked descriptor. */
  async readFile(abs: string, nameChecked = false): Promise<{ bytes: Buffer; stat: Stats }> {
    const { fh, stat: st } = await this.open(abs, nameChecked);
    try {
      const whole = this.whole(abs, st);
      for (;;) {
        const buf = whole.next();
        if (!whole.took(buf, (await fh.read(buf, 0, buf.length, null)).bytesRead)) break;
      }
      return { bytes: whole.bytes(), stat: st };
    } finally {
      await fh.close();
    }
  }

  /**
   * The same without the thread pool, for a worker thread: on a folder of small files the round
   * trip per syscall (open, stat, readlink, read, close) cost more than parsing the file.
   */
  readFileSync(abs: string, nameChecked = false): { bytes: Buffer; stat: Stats } {
    try {
      const { fd, stat: st } = this.openSync(abs, nameChecked);
      try {
        const whole = this.whole(abs, st);
        for (;;) {
          const buf = whole.next();
          if (!whole.took(buf, readSync(fd, buf, 0, buf.length, null))) break;
        }
        return { bytes: whole.bytes(), stat: st };
      } finally {
        closeSync(fd);
      }
    } finally {
      // One file per call, refused or not: no directory stays held between a worker's tasks.
      this.release();
    }
  }

  private whole(abs: string, st: Stats): WholeFile {
    const cap = this.opts.maxFileBytes;
    return new WholeFile(st.size, cap, () =>
      refusal('invalid_argument', abs, `too large (over ${cap} bytes, index.max_file_bytes)`, { reason: 'too large' }),
    );
  }

  /** `readFile` plus the content rule the walk applies (NUL sniff), for `read`: it serves only what indexing would admit. */
  async readAdmitted(abs: string): Promise<{ bytes: Buffer; stat: Stats }> {
    const r = await this.readFile(abs);
    if (!DOCUMENT_EXTENSIONS.has(extensionOf(abs)) && looksBinary(r.bytes.subarray(0, SNIFF_BYTES)))
      throw refusal('invalid_argument', abs, 'a binary file; only text and documents are served', { reason: 'binary' });
    return r;
  }
}

/** The door of whichever folder lexically holds `abs`, or null. */
export function accessFor(folders: readonly FolderAccess[], abs: string): FolderAccess | null {
  return (
    folders.find((f) => {
      const rel = f.lexicalRel(abs);
      return rel !== null && rel !== '';
    }) ?? null
  );
}

/** Plain data that rebuilds a `FolderAccess` on another thread. */
export interface AccessSpec {
  spec: FolderSpec;
  opts: AccessOptions;
  /** Bumped by the sender when rules may have changed (a new job), so a worker's cached ignore files are dropped. */
  epoch: number;
}

/** The plain-data part of walk or indexer options (no AbortSignal: it crosses to workers). */
export function accessOptions(o: AccessOptions): AccessOptions {
  return {
    maxFileBytes: o.maxFileBytes,
    respectGitignore: o.respectGitignore,
    extraExcludes: [...o.extraExcludes],
    ...(o.dataDir ? { dataDir: o.dataDir } : {}),
  };
}

const cache = new Map<string, FolderAccess>();

/** A worker's `FolderAccess` for a spec, kept while the spec and its epoch stay the same. */
export function accessFromSpec(a: AccessSpec): FolderAccess {
  const key = JSON.stringify(a);
  let access = cache.get(key);
  if (!access) {
    if (cache.size > 16) cache.clear();
    access = new FolderAccess(a.spec, a.opts);
    cache.set(key, access);
  }
  return access;
}

/**
 * Which folder a requested path names and its absolute path, judged on the literal path only: an
 * absolute path strictly inside one of `folders`, or a folder-relative one (the first folder that
 * has an entry of that name, not followed). No `..`, no percent-encoded dots or slashes, no NUL,
 * no prefix siblings (`/data-evil` beside `/data`): every such refusal is `path_outside_folders`.
 * Where the path really leads and whether the folder's rules admit it is decided when it is opened
 * (`FolderAccess.open`), on the descriptor: a realpath here would say nothing about a later open.
 * The `read` tool checks with this before it asks the engine, and the engine's read again.
 */
export async function containedPath<F extends string | FolderSpec>(
  requested: string,
  folders: readonly F[],
): Promise<{ path: string; folder: F }> {
  if (typeof requested !== 'string' || requested.length === 0) {
    throw new CairnError('invalid_argument', 'path must be a non-empty string', { details: { key: 'path' } });
  }
  const refuse = (why: string) =>
    new CairnError('path_outside_folders', `${requested} is not inside an indexed folder (${why})`, {
      remedy: 'Pass an absolute path that search or grep returned, inside one of the indexed folders.',
      details: { path: requested },
    });
  const trick = pathTrick(requested);
  if (trick) throw refuse(trick);
  const root = (f: F) => resolve(typeof f === 'string' ? f : f.path);
  const below = (f: F, p: string) => {
    const rel = relativeInside(root(f), p);
    return rel !== null && rel !== '';
  };
  if (isAbsolute(requested)) {
    const path = resolve(requested);
    const folder = folders.find((f) => below(f, path));
    if (folder === undefined) {
      // The folder itself is not outside anything: say what it is, as for any directory inside it.
      if (folders.some((f) => root(f) === path))
        throw new CairnError('invalid_argument', `${requested} is an indexed folder, not a file`, {
          remedy: 'Pass the path of a file inside it, as search or grep returns it.',
          details: { key: 'path', path: requested },
        });
      throw refuse('no indexed folder contains it');
    }
    return { path, folder };
  }
  const candidates = folders
    .map((folder) => ({ path: resolve(root(folder), requested), folder }))
    .filter((c) => below(c.folder, c.path));
  for (const c of candidates)
    if (
      await lstat(fsPath(c.path)).then(
        () => true,
        () => false,
      )
    )
      return c;
  throw new CairnError('not_found', `${requested} is in no indexed folder`, { details: { path: requested } });
}

/**
 * The path the desktop shell may reveal in the file manager for `file`, or null: normalised (no
 * `..` or `.` segments, no NUL), lexically inside one of `folders` (a string prefix is not enough:
 * `/data-evil` is not in `/data`), and still inside that folder once symlinks are resolved.
 * Revealing reads nothing, so the rules are not applied: the errors list shows files they skip.
 */
export async function revealablePath(folders: readonly string[], file: string): Promise<string | null> {
  // Lexical refusals as containedPath's, but a literal `%2e` in a file name is a name here: nothing is decoded.
  if (typeof file !== 'string' || file.length === 0 || file.includes('\0') || !isAbsolute(file)) return null;
  if (file.split(/[\\/]+/).some((seg) => seg === '..' || seg === '.')) return null;
  const abs = resolve(file);
  for (const folder of folders) {
    const rel = relativeInside(resolve(folder), abs);
    if (rel === null) continue;
    try {
      const [realFolder, real] = await Promise.all([realpathText(folder), realpathText(abs)]);
      return relativeInside(realFolder, real) === null ? null : real;
    } catch {
      return null;
    }
  }
  return null;
}
