/**
 * "Is this path inside that folder", judged on the path's text: the one answer every door uses
 * (the file door in sources/access.ts, the walk, the searcher's last filter, the static servers,
 * the data-folder guard). A string prefix is never enough (`/data-evil` is not in `/data`), and
 * the tricks a caller may try (`..`, percent-encoded dots and slashes, NUL) are refused by name.
 * Where a path really leads (symlinks, races) is not lexical: sources/access.ts decides that on
 * the opened descriptor.
 */
import { isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { isCanonicalPathText } from './path-bytes.js';

/** `child` relative to `parent` with forward slashes, '' for the same path, null when not below it. */
export function relativeInside(parent: string, child: string): string | null {
  const r = relative(parent, child);
  if (r === '') return '';
  if (r.startsWith('..') || isAbsolute(r)) return null;
  return r.split(sep).join('/');
}

/** True when `path` is `root` or below it, for two already-normalised absolute paths (no syscall, no resolve). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** A test for "strictly below one of the folders", for normalised absolute paths; built once per call, run per row. */
export function inFolders(folders: readonly string[]): (path: string) => boolean {
  const prefixes = folders.map((f) => (f.endsWith(sep) ? f : f + sep));
  return (path) => prefixes.some((p) => path.startsWith(p));
}

/** Why a requested path is refused before any lookup, or null: the tricks, named. */
export function pathTrick(requested: string): string | null {
  if (requested.includes('\0')) return 'NUL byte';
  if (/%(2e|2f|5c|00)/i.test(requested)) return 'percent-encoded characters are not decoded';
  if (requested.split(/[\\/]+/).includes('..')) return 'parent segments';
  // One file, one name: `\x41` for `A` would be judged by the rules under a name it is not opened by.
  if (!isCanonicalPathText(requested)) return '\\xNN stands only for a byte that is not UTF-8';
  return null;
}

/**
 * The file under `root` that a URL path names (`/` is index.html), or null when it would leave
 * `root`: `..` after decoding, a bad percent-encoding, NUL. For the static servers (the engine's
 * workbench and the desktop shell's app:// scheme).
 */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const rel = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = normalize(join(base, rel));
  return full !== base && isInside(base, full) ? full : null;
}
