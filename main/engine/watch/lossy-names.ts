import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fsPath, pathText } from '../kernel/path-bytes.js';

/** Past this many look-alikes the watcher asks for a rescan instead (kernel/path-bytes.ts). */
const MAX_CANDIDATES = 64;

/**
 * The exact paths (Cairn's text, kernel/path-bytes.ts) that a watcher event's lossy path may
 * stand for, or null when they cannot be found (the file is gone, or too many look-alikes).
 *
 * @parcel/watcher hands paths over as UTF-8 strings, so a name that is not UTF-8 arrives with
 * U+FFFD where its bytes were. Each such component is looked up in its directory listing (read as
 * bytes) among the names that decode to the same lossy text; the caller rescans when this is null,
 * so an event is never dropped, only settled the slow way.
 */
export async function exactPaths(root: string, lossy: string): Promise<string[] | null> {
  const rel = lossy.slice(root.length).replace(/^\/+/, '');
  let candidates = [root];
  for (const part of rel.split('/')) {
    if (!part.includes('\ufffd')) {
      candidates = candidates.map((c) => join(c, part));
      continue;
    }
    const next: string[] = [];
    for (const dir of candidates) {
      const names = await readdir(fsPath(dir), { encoding: 'buffer' }).catch(() => [] as Buffer[]);
      for (const name of names) if (name.toString('utf8') === part) next.push(join(dir, pathText(name)));
    }
    if (next.length === 0 || next.length > MAX_CANDIDATES) return null;
    candidates = next;
  }
  return candidates;
}
