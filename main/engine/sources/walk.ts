import { opendir, realpath, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import type { FolderSpec } from '../../common/settings.js';
import type { SourceFile, WalkError } from '../types.js';
import { DOCUMENT_EXTENSIONS, extensionOf, looksBinary } from './defaults.js';
import { FolderFilter } from './filter.js';
import { loadIgnoreLevel, type IgnoreLevel } from './ignore-files.js';
import { fsErrorCode, fsErrorMessage, readHead } from './read.js';

export interface WalkOptions {
  maxFileBytes: number;
  respectGitignore: boolean;
  extraExcludes: string[];
  signal?: AbortSignal;
}

export type WalkItem = { file: SourceFile } | { error: WalkError } | { skipped: { path: string; reason: string } };

interface DirFrame {
  abs: string;
  rel: string;
  /** Real paths of this directory and its ancestors: a symlink back into one of them is a loop. */
  chain: ReadonlySet<string>;
  levels: readonly IgnoreLevel[];
}

function walkError(path: string, err: unknown): { error: WalkError } {
  return { error: { path, code: fsErrorCode(err), message: fsErrorMessage(path, err) } };
}

function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Entry names in a stable order (UTF-16 code units), so two walks of one tree agree. */
async function listDir(abs: string): Promise<Dirent[]> {
  const entries: Dirent[] = [];
  const dir = await opendir(abs);
  for await (const e of dir) entries.push(e);
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Walks a folder depth-first in name order and yields every file that belongs to the index, each
 * skip with its reason (size, binary, symlink out, ...) when worth reporting, and every unreadable
 * entry as an error; the walk always goes on. Memory is bounded by depth times directory width:
 * nothing is collected across directories.
 */
export async function* walkFolder(spec: FolderSpec, opts: WalkOptions): AsyncGenerator<WalkItem> {
  const filter = new FolderFilter(spec, opts);
  let rootReal: string;
  try {
    rootReal = await realpath(spec.path);
    if (!(await stat(rootReal)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    yield walkError(spec.path, err);
    return;
  }
  yield* walkDir(filter, opts, rootReal, { abs: spec.path, rel: '', chain: new Set([rootReal]), levels: [] });
}

async function* walkDir(filter: FolderFilter, opts: WalkOptions, rootReal: string, frame: DirFrame): AsyncGenerator<WalkItem> {
  opts.signal?.throwIfAborted();
  let levels = frame.levels;
  if (filter.honoursIgnoreFiles) {
    const own = await loadIgnoreLevel(frame.abs, frame.rel);
    if (own) levels = [...levels, own];
  }
  let entries: Dirent[];
  try {
    entries = await listDir(frame.abs);
  } catch (err) {
    yield walkError(frame.abs, err);
    return;
  }
  for (const entry of entries) {
    opts.signal?.throwIfAborted();
    const abs = join(frame.abs, entry.name);
    const rel = frame.rel === '' ? entry.name : `${frame.rel}/${entry.name}`;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    let real: string | null = null;
    if (entry.isSymbolicLink()) {
      // Never follow a link out of the folder (it could expose anything on the disk).
      try {
        real = await realpath(abs);
        const target = await stat(real);
        isDir = target.isDirectory();
        isFile = target.isFile();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ELOOP') yield { skipped: { path: abs, reason: 'broken symlink' } };
        else yield walkError(abs, err);
        continue;
      }
      if (!isInside(rootReal, real)) {
        yield { skipped: { path: abs, reason: 'symlink outside the folder' } };
        continue;
      }
    }
    if (isDir) {
      if (filter.rejectEntry(rel, true, levels)) continue;
      if (real === null) {
        try {
          real = await realpath(abs);
        } catch (err) {
          yield walkError(abs, err);
          continue;
        }
      }
      if (frame.chain.has(real)) {
        yield { skipped: { path: abs, reason: 'symlink loop' } };
        continue;
      }
      const chain = new Set(frame.chain).add(real);
      yield* walkDir(filter, opts, rootReal, { abs, rel, chain, levels });
      continue;
    }
    if (!isFile) {
      if (!entry.isSymbolicLink() || real !== null) yield { skipped: { path: abs, reason: 'not a regular file' } };
      continue;
    }
    const why = filter.rejectEntry(rel, false, levels);
    if (why) {
      // Rule-based skips are expected and numerous (node_modules, ignores); only content ones are reported.
      if (why === 'binary' || why === 'minified') yield { skipped: { path: abs, reason: why } };
      continue;
    }
    yield* checkFile(abs, rel, opts.maxFileBytes);
  }
}

async function* checkFile(abs: string, rel: string, maxFileBytes: number): AsyncGenerator<WalkItem> {
  let size: number;
  let mtimeMs: number;
  try {
    const st = await stat(abs);
    size = st.size;
    mtimeMs = st.mtimeMs;
  } catch (err) {
    yield walkError(abs, err);
    return;
  }
  if (size > maxFileBytes) {
    yield { skipped: { path: abs, reason: `too large (${size} bytes > ${maxFileBytes})` } };
    return;
  }
  try {
    // Also proves the file is readable, so an unreadable file is reported here, not mid-index.
    const head = await readHead(abs);
    if (!DOCUMENT_EXTENSIONS.has(extensionOf(rel)) && looksBinary(head)) {
      yield { skipped: { path: abs, reason: 'binary' } };
      return;
    }
  } catch (err) {
    yield walkError(abs, err);
    return;
  }
  yield { file: { path: abs, rel, size, mtimeMs } };
}

