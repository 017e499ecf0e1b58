/**
 * Maps an app:// URL path to a file under the renderer folder, or null if it would leave it
 * (`..`, encoded dots, absolute paths, NUL). Plain Node so it is tested without Electron.
 */
import { join, normalize, sep } from 'node:path';

export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const rel = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = normalize(join(root, rel));
  return full === root || full.startsWith(root.endsWith(sep) ? root : root + sep) ? full : null;
}

