/**
 * The descriptors this process holds open (Linux, /proc/self/fd): those on files under a folder,
 * and of them the files already deleted, with the disk space they still hold (a deleted file's
 * blocks are freed only when its last descriptor closes).
 */
import { readdirSync, readlinkSync, statSync } from 'node:fs';

export interface OpenFiles {
  /** Every descriptor of the process. */
  total: number;
  /** Targets under the folder. */
  all: string[];
  /** Of those, the files deleted while open. */
  deleted: string[];
  deletedBytes: number;
}

const DELETED = ' (deleted)';

export function openIndexFiles(under: string): OpenFiles {
  const out: OpenFiles = { total: 0, all: [], deleted: [], deletedBytes: 0 };
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed since the listing (the listing's own descriptor among them)
    }
    out.total++;
    if (!target.startsWith(under)) continue;
    out.all.push(target);
    if (!target.endsWith(DELETED)) continue;
    out.deleted.push(target.slice(0, -DELETED.length));
    try {
      // stat through the descriptor: the file has no name any more.
      out.deletedBytes += statSync(`/proc/self/fd/${fd}`).size;
    } catch {
      // closed meanwhile
    }
  }
  return out;
}
