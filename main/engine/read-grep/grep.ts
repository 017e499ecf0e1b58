import type { FolderSpec } from '../../common/settings.js';
import type { GrepResult } from '../../common/search.js';
import type { GrepRequest } from '../../common/requests.js';
import { parseGrepRequest } from '../../common/requests.js';
import { argumentsOf } from '../errors.js';
import { globMatcher } from '../search/filters.js';
import { walkNames, type WalkOptions } from '../sources/index.js';
import { accessOptions, type AccessSpec } from '../sources/access.js';
import { compile, matchSpec, type LineHit } from './grep-match.js';
import { grepTimeout, sharedGrepPool, type GrepPool } from './grep-pool.js';
import type { WalkedFile } from './file-reader.js';

/** Files per batch sent to a worker: enough to amortize a message, few enough to spread the load. */
const BATCH = 64;
export const DEFAULT_GREP_TIMEOUT_MS = 15_000;

/**
 * Exhaustive line search over the files the index covers (same walk rules), in process: no
 * shell, bounded by match count and by `timeoutMs`. Returns matches in walk order (folder, then
 * path). The main thread only walks (names, never content); files are opened, read and searched
 * in batches on the grep workers, and results are taken in walk order.
 */
export async function grepFolders(
  input: GrepRequest,
  folders: FolderSpec[],
  walk: WalkOptions,
  pool: GrepPool = sharedGrepPool(),
  timeoutMs = DEFAULT_GREP_TIMEOUT_MS,
): Promise<GrepResult> {
  const req = argumentsOf(parseGrepRequest(input));
  const spec = matchSpec(req);
  // Compiled here only to refuse a bad pattern with a typed error before any work; never run here.
  compile(spec);
  const max = req.max_matches;
  const deadline = Date.now() + timeoutMs;
  const keep = globMatcher(req.globs ?? []);
  const epoch = Date.now();
  const access: AccessSpec[] = folders.map((f) => ({ spec: f, opts: accessOptions(walk), epoch }));
  const out: GrepResult = { matches: [], files_searched: 0, truncated: false };
  // One match past the cap tells truncation apart from an exact fit.
  const limit = max + 1;
  /** Adds one batch's results in order; true once the cap is passed. */
  const take = (files: WalkedFile[], results: (LineHit[] | null)[]): boolean => {
    for (let i = 0; i < files.length; i++) {
      const hits = results[i];
      if (!hits) continue;
      out.files_searched++;
      for (const h of hits) {
        if (out.matches.length >= max) {
          out.truncated = true;
          return true;
        }
        out.matches.push({ path: files[i].path, line: h.line, text: h.text });
      }
    }
    return false;
  };
  const inFlight: { files: WalkedFile[]; results: Promise<(LineHit[] | null)[]> }[] = [];
  const send = (files: WalkedFile[]) => {
    const results = pool.search({ spec, folders: access, limit, files }, deadline, timeoutMs);
    // Awaited in order below; a rejection meanwhile must not count as unhandled.
    results.catch(() => undefined);
    inFlight.push({ files, results });
  };
  const drain = async (keepInFlight: number): Promise<boolean> => {
    while (inFlight.length > keepInFlight) {
      const head = inFlight.shift() as (typeof inFlight)[number];
      if (take(head.files, await head.results)) return true;
    }
    return false;
  };
  const depth = pool.size * 2;
  let batch: WalkedFile[] = [];
  try {
    for (let f = 0; f < folders.length; f++) {
      // The index's own walk, by names only: the workers open and check each file.
      for await (const names of walkNames(folders[f], walk, keep)) {
        if (Date.now() > deadline) throw grepTimeout(timeoutMs);
        for (const name of names) {
          batch.push({ path: name.path, rel: name.rel, folder: f });
          if (batch.length < BATCH) continue;
          send(batch);
          batch = [];
          if (await drain(depth)) return out;
        }
      }
    }
    if (batch.length) send(batch);
    await drain(0);
    return out;
  } finally {
    // Batches still out after a cap or a failure: their answers are not wanted.
    for (const b of inFlight) b.results.catch(() => undefined);
  }
}
