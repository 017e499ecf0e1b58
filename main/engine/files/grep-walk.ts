import { closeSync, readdirSync, readSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { normalize, sep } from 'node:path';
import type { FolderSpec } from '../../common/settings.js';
import { DOCUMENT_EXTENSIONS, SNIFF_BYTES, extensionOf, looksBinary } from '../sources/defaults.js';
import { FolderFilter, type WalkOptions } from '../sources/index.js';
import { relativeInside } from '../sources/filter.js';
import { IGNORE_FILE_NAMES, loadIgnoreLevelSync, type IgnoreLevel } from '../sources/ignore-files.js';
import { isInside } from '../sources/inspect.js';
import { accessFromSpec, accessOptions, type AccessSpec } from '../sources/access.js';

/** One file the walk accepts by name and type; size and content are judged when it is read. */
export interface WalkedFile {
  path: string;
  rel: string;
  /** Which of the call's folders it belongs to. */
  folder: number;
}

/** One file of the walk with its bytes; `bytes` is only valid until the generator resumes. */
export interface GrepFile extends WalkedFile {
  bytes: Buffer;
}

interface Frame {
  abs: string;
  rel: string;
  real: string;
  chain: ReadonlySet<string>;
  levels: readonly IgnoreLevel[];
}

/**
 * Reads whole files into one growing buffer, reused from file to file: grep looks at each file once
 * and keeps only strings, so a fresh allocation per file would only feed the garbage collector.
 * Every file is opened through its folder's door (sources/access.ts), and read from that descriptor.
 */
export class FileReader {
  private scratch = Buffer.allocUnsafe(1 << 16);

  /** The file's bytes (valid until the next read), or null when the walk would leave it out (not a regular file, too large, binary, refused) or it cannot be read. */
  read(folder: AccessSpec, abs: string): Buffer | null {
    const access = accessFromSpec(folder);
    const maxFileBytes = access.opts.maxFileBytes;
    let opened;
    try {
      // The walk applied the rules to this name; the door still checks where the descriptor leads.
      opened = access.openSync(abs, true);
    } catch {
      return null;
    }
    const { fd, stat: st } = opened;
    try {
      // A file that reports size 0 may still have content (readFile would find it): read it to EOF.
      const cap = st.size > 0 ? st.size : maxFileBytes + 1;
      if (st.size > 0) this.ensure(st.size);
      let got = 0;
      for (;;) {
        if (got === this.scratch.length) this.ensure(Math.min(cap, got * 2));
        const n = readSync(fd, this.scratch, got, Math.min(this.scratch.length, cap) - got, null);
        if (n === 0) break;
        got += n;
        if (got >= cap) break;
      }
      if (got > maxFileBytes) return null;
      const bytes = this.scratch.subarray(0, got);
      if (!DOCUMENT_EXTENSIONS.has(extensionOf(abs)) && looksBinary(bytes.subarray(0, SNIFF_BYTES))) return null;
      return bytes;
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }

  private ensure(size: number): void {
    if (size <= this.scratch.length) return;
    const next = Buffer.allocUnsafe(Math.max(size, this.scratch.length * 2));
    this.scratch.copy(next);
    this.scratch = next;
  }
}

/** `join(dir, name)` for a normalized dir and a listed name, without join's per-call normalization. */
function child(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

function listDir(abs: string): Dirent[] | null {
  try {
    return readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return null;
  }
}

/** The files `walkFolder` yields for a folder with their bytes: `walkFiles` and a `FileReader` in one. */
export function* walkAndRead(spec: FolderSpec, opts: WalkOptions, want: ((rel: string) => boolean) | null): Generator<GrepFile | null> {
  const reader = new FileReader();
  const access: AccessSpec = { spec, opts: accessOptions(opts), epoch: 0 };
  for (const f of walkFiles(spec, opts, want)) {
    if (!f) {
      yield null;
      continue;
    }
    const bytes = reader.read(access, f.path);
    if (bytes) yield { ...f, bytes };
  }
}

/**
 * The files `walkFolder` yields for a folder, in the same order and by the same rules (built-in
 * excludes, globs, ignore files, symlink containment and loops, regular file), except the checks
 * that need the file's content (size, NUL sniff): `FileReader` makes those as it reads. Synchronous
 * on purpose: grep is bound by per-file syscalls, and a thread-pool round trip per
 * open/stat/read/close made it ten times slower than ripgrep; callers slice the work so the event
 * loop still breathes. `want` drops files by folder-relative path. Errors and skips are silent, as
 * grep never reported them. Yields null once per directory so the caller can pause even where no
 * file is accepted. test/engine/grep-walk.test.ts holds it to `walkFolder`, so a change to the
 * walk's rules that is not made here too fails there.
 */
export function* walkFiles(spec: FolderSpec, opts: WalkOptions, want: ((rel: string) => boolean) | null, folder = 0): Generator<WalkedFile | null> {
  const filter = new FolderFilter(spec, opts);
  let rootReal: string;
  try {
    rootReal = realpathSync(spec.path);
    if (!statSync(rootReal).isDirectory()) return;
  } catch {
    return;
  }
  if (filter.insideDataFolder) return;
  yield* walkDir(filter, want, rootReal, folder, { abs: normalize(spec.path), rel: '', real: rootReal, chain: new Set([rootReal]), levels: [] });
}

function* walkDir(filter: FolderFilter, want: ((rel: string) => boolean) | null, rootReal: string, folder: number, frame: Frame): Generator<WalkedFile | null> {
  yield null;
  const entries = listDir(frame.abs);
  if (!entries) return;
  let levels = frame.levels;
  // Read ignore files only where the listing has one: a failed open per directory and name costs more than the lookup.
  if (filter.honoursIgnoreFiles && entries.some((e) => (IGNORE_FILE_NAMES as readonly string[]).includes(e.name))) {
    const own = loadIgnoreLevelSync(frame.abs, frame.rel);
    if (own) levels = [...levels, own];
  }
  for (const entry of entries) {
    const abs = child(frame.abs, entry.name);
    const rel = frame.rel === '' ? entry.name : `${frame.rel}/${entry.name}`;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    let real: string | null = null;
    if (entry.isSymbolicLink()) {
      try {
        real = realpathSync(abs);
        const target = statSync(real);
        isDir = target.isDirectory();
        isFile = target.isFile();
      } catch {
        continue;
      }
      if (!isInside(rootReal, real)) continue;
      // Rules apply to the target too, as in walkFolder.
      const targetRel = relativeInside(rootReal, real);
      if (targetRel && filter.reject(targetRel, isDir)) continue;
    }
    if (isDir) {
      if (filter.rejectEntry(rel, true, levels)) continue;
      real ??= child(frame.real, entry.name);
      if (frame.chain.has(real)) continue;
      yield* walkDir(filter, want, rootReal, folder, { abs, rel, real, chain: new Set(frame.chain).add(real), levels });
      continue;
    }
    if (!isFile || filter.rejectEntry(rel, false, levels)) continue;
    if (want && !want(rel)) continue;
    yield { path: abs, rel, folder };
  }
}
