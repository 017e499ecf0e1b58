import { opendir, stat } from 'node:fs/promises';
import { readdirSync, type Dirent } from 'node:fs';
import { normalize, sep } from 'node:path';
import type { FolderSpec } from '../../common/settings.js';
import type { WalkError } from '../types.js';
import type { WalkItem, WalkOptions } from './walk-item.js';
import { walkError } from './inspect.js';
import { FolderFilter } from './filter.js';
import { isInside, relativeInside } from '../kernel/scope.js';
import { IGNORE_FILE_NAMES, loadIgnoreLevel, type IgnoreLevel } from './ignore-files.js';
import { checkFile } from './inspect.js';
import { fsPath, isPlainDecodedName, pathText, realpathText } from '../kernel/path-bytes.js';

export type { WalkItem, WalkOptions } from './walk-item.js';

/** A file `walkNames` accepts by name and type; its size and content are judged when it is read. */
export interface WalkedName {
  path: string;
  rel: string;
}

/** What the walk yields inside: names mode yields names where content mode checks the file. */
type Item = WalkItem | { name: WalkedName };

interface DirFrame {
  abs: string;
  rel: string;
  /** Real path of this directory. */
  real: string;
  /** Real paths of this directory and its ancestors: a symlink back into one of them is a loop. */
  chain: ReadonlySet<string>;
  levels: readonly IgnoreLevel[];
}

/** Files checked concurrently ahead of the walk's position in a directory. */
const LOOKAHEAD = 16;
/** Most items the walk holds before handing them on (a huge directory still streams). */
const BATCH = 256;

/** A directory entry under the name Cairn writes for it (kernel/path-bytes.ts: bytes that are not UTF-8 escaped). */
interface Entry {
  name: string;
  type: Dirent | Dirent<Buffer>;
}

/** `join(dir, name)` for a normal directory path and a name from its listing, without join's normalizing pass. */
function childOf(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** Entry names in a stable order (UTF-16 code units), so two walks of one tree agree. */
async function listDir(abs: string): Promise<Entry[]> {
  // One readdir, not opendir's batch-at-a-time iteration: the listing is sorted whole anyway.
  // Synchronous: a getdents costs microseconds, the thread-pool round trip around it far more once
  // the cores are busy (grep, 8.5k files in 61 directories: 1.65x -> 1.48x ripgrep); it blocks no
  // longer than the sort below, and the filter already resolves the folder's path synchronously.
  const path = fsPath(abs);
  let entries: Entry[] = readdirSync(path, { withFileTypes: true }).map((type) => ({ name: type.name, type }));
  // A name that is not UTF-8 would read with U+FFFD: such a listing is read again as bytes.
  if (!entries.every((e) => isPlainDecodedName(e.name)))
    entries = readdirSync(path, { withFileTypes: true, encoding: 'buffer' }).map((type) => ({
      name: pathText(type.name),
      type,
    }));
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Null when the folder's root can be listed; else the walk's error for it (a root made unreadable
 * while serving, removed, or replaced by a file). A job that cannot list the root must not read
 * what it sees inside as files that are gone or locked: it stops before any write.
 */
export async function rootError(spec: FolderSpec): Promise<WalkError | null> {
  try {
    const dir = await opendir(fsPath(spec.path));
    await dir.read();
    await dir.close();
    return null;
  } catch (err) {
    return walkError(spec.path, err).error;
  }
}

/**
 * Walks a folder depth-first in name order and yields every file that belongs to the index, each
 * skip with its reason (size, binary, symlink out, ...) when worth reporting, and every unreadable
 * entry as an error; the walk always goes on. Memory is bounded by depth times directory width:
 * nothing is collected across directories.
 */
export async function* walkFolder(spec: FolderSpec, opts: WalkOptions): AsyncGenerator<WalkItem> {
  for await (const batch of walk(spec, opts, false)) yield* batch as WalkItem[];
}

/**
 * The same walk, by the same rules and in the same order, without the checks that need a file's
 * content (size, NUL sniff, stat): grep reads every file anyway, on its workers, and makes those
 * checks there (read-grep/file-reader.ts), so the main thread touches no file, only directories (and
 * symlinks). `want` drops files by folder-relative path. Skips and errors are not yielded. Names
 * come in batches, in walk order: grep sends them on in batches anyway.
 */
export async function* walkNames(
  spec: FolderSpec,
  opts: WalkOptions,
  want: ((rel: string) => boolean) | null,
): AsyncGenerator<WalkedName[]> {
  for await (const batch of walk(spec, opts, true)) {
    const names: WalkedName[] = [];
    for (const item of batch) if ('name' in item && (!want || want(item.name.rel))) names.push(item.name);
    if (names.length) yield names;
  }
}

async function* walk(spec: FolderSpec, opts: WalkOptions, names: boolean): AsyncGenerator<Item[]> {
  const filter = new FolderFilter(spec, opts);
  let rootReal: string;
  try {
    rootReal = await realpathText(spec.path);
    if (!(await stat(fsPath(rootReal))).isDirectory())
      throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    yield [walkError(spec.path, err)];
    return;
  }
  yield* walkDir(filter, opts, names, rootReal, {
    abs: normalize(spec.path),
    rel: '',
    real: rootReal,
    chain: new Set([rootReal]),
    levels: [],
  });
}

async function* walkDir(
  filter: FolderFilter,
  opts: WalkOptions,
  names: boolean,
  rootReal: string,
  frame: DirFrame,
): AsyncGenerator<Item[]> {
  opts.signal?.throwIfAborted();
  let entries: Entry[];
  try {
    entries = await listDir(frame.abs);
  } catch (err) {
    yield [walkError(frame.abs, err)];
    return;
  }
  // Items leave in batches (at most BATCH, cut where a subdirectory starts): an async-generator
  // hop per item, times the depth, cost more than the walk's own work on the item.
  let out: Item[] = [];
  let levels = frame.levels;
  // Ignore files are read only where the listing has one: a failed open per directory and name
  // costs more than the lookup.
  if (filter.honoursIgnoreFiles && entries.some((e) => (IGNORE_FILE_NAMES as readonly string[]).includes(e.name))) {
    const own = await loadIgnoreLevel(frame.abs, frame.rel);
    if (own) levels = [...levels, own];
  }
  const relOf = (name: string) => (frame.rel === '' ? name : `${frame.rel}/${name}`);
  // Plain files are checked (stat + sniff) a few ahead of the one being yielded: the walk is bound
  // by I/O latency, and the order of results stays the order of names.
  const checks = new Map<number, Promise<WalkItem | null>>();
  const startChecks = (from: number) => {
    for (let k = from; k < Math.min(entries.length, from + LOOKAHEAD); k++) {
      const e = entries[k];
      if (checks.has(k) || !e.type.isFile()) continue;
      const rel = relOf(e.name);
      checks.set(
        k,
        filter.rejectEntry(rel, false, levels)
          ? Promise.resolve(null)
          : checkFile(childOf(frame.abs, e.name), rel, opts.maxFileBytes),
      );
    }
  };
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    opts.signal?.throwIfAborted();
    if (out.length >= BATCH) {
      yield out;
      out = [];
    }
    const abs = childOf(frame.abs, entry.name);
    const rel = relOf(entry.name);
    if (entry.type.isFile() && !names) {
      startChecks(index);
      const item = await checks.get(index);
      checks.delete(index);
      if (item) {
        out.push(item);
        continue;
      }
    }
    let isDir = entry.type.isDirectory();
    let isFile = entry.type.isFile();
    let real: string | null = null;
    if (entry.type.isSymbolicLink()) {
      // Never follow a link out of the folder (it could expose anything on the disk).
      try {
        real = await realpathText(abs);
        const target = await stat(fsPath(real));
        isDir = target.isDirectory();
        isFile = target.isFile();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ELOOP') out.push({ skipped: { path: abs, reason: 'broken symlink' } });
        else out.push(walkError(abs, err));
        continue;
      }
      if (!isInside(rootReal, real)) {
        out.push({ skipped: { path: abs, reason: 'symlink outside the folder' } });
        continue;
      }
      // The rules apply to what the link points to as well as to its name: a link must not
      // bring in a file the folder excludes, ignores or keeps out as a secret.
      const targetRel = relativeInside(rootReal, real);
      if (targetRel && filter.reject(targetRel, isDir)) {
        out.push({ skipped: { path: abs, reason: 'symlink to a path the rules leave out' } });
        continue;
      }
    }
    if (isDir) {
      const dirWhy = filter.rejectEntry(rel, true, levels);
      if (dirWhy) {
        // Secret folders (.ssh, .gnupg…) are reported, so status can say how much they kept out.
        if (dirWhy === 'secret' || dirWhy === 'data folder' || opts.reportRuleSkips)
          out.push({ skipped: { path: abs, reason: dirWhy, dir: true } });
        continue;
      }
      // A plain subdirectory's real path follows from its parent's: no syscall needed.
      real ??= childOf(frame.real, entry.name);
      if (frame.chain.has(real)) {
        out.push({ skipped: { path: abs, reason: 'symlink loop' } });
        continue;
      }
      const chain = new Set(frame.chain).add(real);
      if (out.length) yield out;
      out = [];
      yield* walkDir(filter, opts, names, rootReal, { abs, rel, real, chain, levels });
      continue;
    }
    if (!isFile) {
      if (!entry.type.isSymbolicLink() || real !== null)
        out.push({ skipped: { path: abs, reason: 'not a regular file' } });
      continue;
    }
    const why = filter.rejectEntry(rel, false, levels);
    if (why) {
      // Rule-based skips are expected and numerous (node_modules, ignores); only content ones are reported.
      if (why === 'binary' || why === 'minified' || why === 'secret' || opts.reportRuleSkips)
        out.push({ skipped: { path: abs, reason: why } });
      continue;
    }
    if (names) {
      out.push({ name: { path: abs, rel } });
      continue;
    }
    const item = await checkFile(abs, rel, opts.maxFileBytes);
    if (item) out.push(item);
  }
  if (out.length) yield out;
}
