/**
 * A grep worker: reads a batch of walked files and searches each one, so that the per-file
 * syscalls and the regex work of a grep run off the main thread, on more than one core. Files are
 * opened through their folder's door (sources/access.ts). Stateless apart from a cached matcher:
 * every message carries what it needs.
 */
import { readlinkSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { ErrorCode } from '../../common/errors.js';
import { CairnError } from '../errors.js';
import { accessFromSpec, type AccessSpec } from '../sources/access.js';
import { FileMatcher, type LineHit, type MatchSpec } from './grep-match.js';
import { FileReader, type WalkedFile } from './file-reader.js';

export interface ToGrepWorker {
  id: number;
  spec: MatchSpec;
  /** The folders the files belong to; `WalkedFile.folder` indexes this list. */
  folders: AccessSpec[];
  /** Matching lines wanted per file at most. */
  limit: number;
  files: WalkedFile[];
}

/** Per file: its matching lines, or null when it was not searched (unreadable, too large, binary, refused). */
export type FromGrepWorker =
  /** `tid`: this thread's kernel id (Linux), so the pool can lower its priority while it spins. */
  | { ready: true; tid: number | null }
  | { id: number; results: (LineHit[] | null)[] }
  | { id: number; error: string; code?: ErrorCode };

const port = parentPort as NonNullable<typeof parentPort>;
let cached: { key: string; matcher: FileMatcher } | null = null;
const reader = new FileReader();

port.on('message', (m: ToGrepWorker) => {
  try {
    const key = JSON.stringify(m.spec);
    if (cached?.key !== key) cached = { key, matcher: new FileMatcher(m.spec) };
    const matcher = cached.matcher;
    // One door per folder per batch: keying the cache per file (a JSON string of the spec) cost more than the match.
    const doors = m.folders.map(accessFromSpec);
    let results: (LineHit[] | null)[];
    try {
      results = m.files.map((f) => {
        const bytes = reader.read(doors[f.folder], f.path);
        return bytes ? matcher.match(bytes, m.limit) : null;
      });
    } finally {
      // A directory is held open and checked for one batch at most.
      for (const d of doors) d.release();
    }
    port.postMessage({ id: m.id, results } satisfies FromGrepWorker);
  } catch (err) {
    port.postMessage({
      id: m.id,
      error: (err as Error).message,
      code: err instanceof CairnError ? err.code : undefined,
    } satisfies FromGrepWorker);
  }
});
/** The kernel's id of this thread, where /proc names it. */
function threadTid(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}
port.postMessage({ ready: true, tid: threadTid() } satisfies FromGrepWorker);
