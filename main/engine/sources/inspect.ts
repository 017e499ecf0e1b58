import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderSpec } from '../../common/settings.js';
import type { WalkError } from '../types.js';
import { DOCUMENT_EXTENSIONS, extensionOf, looksBinary } from './defaults.js';
import { FolderFilter } from './filter.js';
import { isInside, relativeInside } from '../kernel/scope.js';
import { fsErrorCode, fsErrorMessage, probeFile } from './fs-probe.js';
import type { WalkItem, WalkOptions } from './walk-item.js';
import { fsPath, realpathText } from '../kernel/path-bytes.js';

export function walkError(path: string, err: unknown): { error: WalkError } {
  return { error: { path, code: fsErrorCode(err), message: fsErrorMessage(path, err) } };
}

/** Size, readability and NUL sniff of one file; never rejects (failures become error items). */
export async function checkFile(abs: string, rel: string, maxFileBytes: number): Promise<WalkItem> {
  let probe;
  try {
    // Opening also proves the file is readable, so an unreadable file is reported here, not mid-index.
    probe = await probeFile(abs, maxFileBytes);
  } catch (err) {
    return walkError(abs, err);
  }
  if (!probe.isFile) return { skipped: { path: abs, reason: 'not a regular file' } };
  if (probe.size > maxFileBytes)
    return { skipped: { path: abs, reason: `too large (${probe.size} bytes > ${maxFileBytes})` } };
  if (!DOCUMENT_EXTENSIONS.has(extensionOf(rel)) && looksBinary(probe.head))
    return { skipped: { path: abs, reason: 'binary' } };
  return { file: { path: abs, rel, size: probe.size, mtimeMs: probe.mtimeMs, ctimeMs: probe.ctimeMs, ino: probe.ino } };
}

/**
 * One path under the folder, judged exactly as the walk would judge it (rules, symlink
 * containment, regular file, size, NUL sniff): for the watcher and incremental updates, which
 * learn of single files. Returns null when the rules leave the path out.
 */
export async function inspectPath(
  spec: FolderSpec,
  rel: string,
  opts: Omit<WalkOptions, 'signal'>,
  filter = new FolderFilter(spec, opts),
): Promise<WalkItem | null> {
  const clean = rel.replace(/\\/g, '/').replace(/^\.?\/+/, '');
  const abs = join(spec.path, clean);
  const why = filter.reject(clean, false);
  if (why) return why === 'binary' || why === 'minified' ? { skipped: { path: abs, reason: why } } : null;
  try {
    const [root, real] = await Promise.all([realpathText(spec.path), realpathText(abs)]);
    if (!isInside(root, real)) return { skipped: { path: abs, reason: 'symlink outside the folder' } };
    const targetRel = relativeInside(root, real);
    if (targetRel !== clean && (targetRel === '' || (targetRel !== null && filter.reject(targetRel, false))))
      return { skipped: { path: abs, reason: 'symlink to a path the rules leave out' } };
    // A path inside a symlinked directory that leads out is caught by the realpath above.
    if ((await stat(fsPath(real))).isDirectory()) return null;
  } catch (err) {
    return walkError(abs, err);
  }
  return checkFile(abs, clean, opts.maxFileBytes);
}
