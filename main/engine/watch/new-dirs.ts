import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderSpec } from '../../common/settings.js';
import type { FolderFilter } from '../sources/index.js';
import { fsPath, pathText } from '../kernel/path-bytes.js';

/** Directories looked at before giving up the check (a huge tree is then trusted to the watcher). */
const MAX_DIRS = 50_000;
/** Clock granularity and the few ms between taking `since` and the subscription's crawl. */
const SLACK_MS = 1000;

/**
 * Whether any directory the index would enter was created at or after `since` (its birth time; its
 * change time where the filesystem keeps no birth time, which may also flag a directory that only
 * got a new entry: that costs one more subscription, never a miss).
 */
export async function dirCreatedSince(spec: FolderSpec, filter: FolderFilter, since: number): Promise<boolean> {
  const stack: { abs: string; rel: string }[] = [{ abs: spec.path, rel: '' }];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_DIRS) {
    const { abs, rel } = stack.pop()!;
    let dir;
    try {
      // Names as bytes: a lossy one would lstat nothing and hide a new directory (kernel/path-bytes.ts).
      dir = await readdir(fsPath(abs), { withFileTypes: true, encoding: 'buffer' });
    } catch {
      continue;
    }
    for (const e of dir) {
      if (!e.isDirectory()) continue;
      const name = pathText(e.name);
      const childRel = rel === '' ? name : `${rel}/${name}`;
      if (!filter.accepts(childRel, true)) continue;
      const childAbs = join(abs, name);
      seen++;
      const st = await lstat(fsPath(childAbs)).catch(() => null);
      if (!st) continue;
      const born = st.birthtimeMs > 0 ? st.birthtimeMs : st.ctimeMs;
      if (born >= since - SLACK_MS) return true;
      stack.push({ abs: childAbs, rel: childRel });
    }
  }
  return false;
}
