/**
 * A grep worker: reads a batch of walked files and searches each one, so that the per-file
 * syscalls and the regex work of a grep run off the main thread, on more than one core. Files are
 * opened through their folder's door (sources/access.ts). Stateless apart from a cached matcher:
 * every message carries what it needs.
 */
import { parentPort } from 'node:worker_threads';
import type { ErrorCode } from '../../common/errors.js';
import { CairnError } from '../errors.js';
import type { AccessSpec } from '../sources/access.js';
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
  { ready: true } | { id: number; results: (LineHit[] | null)[] } | { id: number; error: string; code?: ErrorCode };

const port = parentPort as NonNullable<typeof parentPort>;
let cached: { key: string; matcher: FileMatcher } | null = null;
const reader = new FileReader();

port.on('message', (m: ToGrepWorker) => {
  try {
    const key = JSON.stringify(m.spec);
    if (cached?.key !== key) cached = { key, matcher: new FileMatcher(m.spec) };
    const matcher = cached.matcher;
    const results = m.files.map((f) => {
      const bytes = reader.read(m.folders[f.folder], f.path);
      return bytes ? matcher.match(bytes, m.limit) : null;
    });
    port.postMessage({ id: m.id, results } satisfies FromGrepWorker);
  } catch (err) {
    port.postMessage({
      id: m.id,
      error: (err as Error).message,
      code: err instanceof CairnError ? err.code : undefined,
    } satisfies FromGrepWorker);
  }
});
port.postMessage({ ready: true } satisfies FromGrepWorker);
