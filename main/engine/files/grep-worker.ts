/**
 * A grep worker: reads a batch of walked files and searches each one, so that the per-file
 * syscalls and the regex work of a grep run on more than one core. Stateless apart from a cached
 * matcher: every message carries what it needs.
 */
import { parentPort } from 'node:worker_threads';
import { FileMatcher, type LineHit, type MatchSpec } from './grep-match.js';
import type { WalkedFile } from './grep-walk.js';
import { FileReader } from './grep-walk.js';

export interface ToGrepWorker {
  id: number;
  spec: MatchSpec;
  maxFileBytes: number;
  /** Matching lines wanted per file at most. */
  limit: number;
  files: WalkedFile[];
}

/** Per file: its matching lines, or null when it was not searched (unreadable, too large, binary). */
export type FromGrepWorker = { id: number; results: (LineHit[] | null)[] } | { id: number; error: string };

const port = parentPort as NonNullable<typeof parentPort>;
let cached: { key: string; matcher: FileMatcher } | null = null;
let reader: FileReader | null = null;

port.on('message', (m: ToGrepWorker) => {
  try {
    const key = JSON.stringify(m.spec);
    if (cached?.key !== key) cached = { key, matcher: new FileMatcher(m.spec) };
    if (reader?.maxFileBytes !== m.maxFileBytes) reader = new FileReader(m.maxFileBytes);
    const results = m.files.map((f) => {
      const bytes = (reader as FileReader).read(f.path, f.rel);
      return bytes ? (cached as { matcher: FileMatcher }).matcher.match(bytes, m.limit) : null;
    });
    port.postMessage({ id: m.id, results } satisfies FromGrepWorker);
  } catch (err) {
    port.postMessage({ id: m.id, error: (err as Error).message } satisfies FromGrepWorker);
  }
});
