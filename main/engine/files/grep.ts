import type { FolderSpec } from '../../common/settings.js';
import type { GrepRequest, GrepResult } from '../../common/search.js';
import { CairnError } from '../errors.js';
import { globMatcher } from '../search/filters.js';
import type { WalkOptions } from '../sources/index.js';
import { FileMatcher, matchSpec, type LineHit } from './grep-match.js';
import { sharedGrepPool, type GrepPool } from './grep-pool.js';
import { FileReader, walkFiles, type WalkedFile } from './grep-walk.js';

const DEFAULT_MATCHES = 200;
const MAX_MATCHES = 5000;
/** Files per batch sent to a worker: enough to amortize a message, few enough to spread the load. */
const BATCH = 64;
/** Batches searched on the main thread before the workers are used: a small folder never waits for them to start. */
const LOCAL_BATCHES = 2;
/** Longest stretch of synchronous work before the event loop gets a turn (see walkFiles). */
const SLICE_MS = 10;

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Exhaustive line search over the files the index covers (same walk rules), in process: no
 * shell, bounded by match count. Returns matches in walk order (folder, then path). The main
 * thread walks; files are read and searched in batches on worker threads (`pool`; null searches
 * on this thread), and results are taken in walk order, so the output is the same either way.
 */
export async function grepFolders(req: GrepRequest, folders: FolderSpec[], walk: WalkOptions, pool: GrepPool | null = sharedGrepPool()): Promise<GrepResult> {
  const spec = matchSpec(req);
  const local = new FileMatcher(spec);
  const max = req.max_matches ?? DEFAULT_MATCHES;
  if (!Number.isInteger(max) || max < 1 || max > MAX_MATCHES) throw new CairnError('invalid_argument', `max_matches must be an integer from 1 to ${MAX_MATCHES}`);
  const keep = globMatcher(req.globs ?? []);
  const out: GrepResult = { matches: [], files_searched: 0, truncated: false };
  // One match past the cap tells truncation apart from an exact fit.
  const limit = max + 1;
  let reader: FileReader | null = null;
  const searchHere = (files: WalkedFile[]): (LineHit[] | null)[] => {
    reader ??= new FileReader(walk.maxFileBytes);
    const r = reader;
    return files.map((f) => {
      const bytes = r.read(f.path, f.rel);
      return bytes ? local.match(bytes, limit) : null;
    });
  };
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
  let sent = 0;
  const send = (files: WalkedFile[]) => {
    // A worker that fails a batch costs only speed: the batch is searched here instead.
    const results = pool && sent++ >= LOCAL_BATCHES ? pool.search(spec, walk.maxFileBytes, limit, files).catch(() => searchHere(files)) : Promise.resolve(searchHere(files));
    inFlight.push({ files, results });
  };
  const drain = async (keepInFlight: number): Promise<boolean> => {
    while (inFlight.length > keepInFlight) {
      const head = inFlight.shift() as (typeof inFlight)[number];
      if (take(head.files, await head.results)) return true;
    }
    return false;
  };
  const depth = pool ? pool.size * 2 : 0;
  let batch: WalkedFile[] = [];
  let sliceEnd = performance.now() + SLICE_MS;
  for (const folder of folders) {
    for (const file of walkFiles(folder, walk, keep)) {
      if (performance.now() > sliceEnd) {
        await breathe();
        sliceEnd = performance.now() + SLICE_MS;
      }
      if (!file) continue;
      batch.push(file);
      if (batch.length < BATCH) continue;
      send(batch);
      batch = [];
      if (await drain(depth)) return out;
    }
  }
  if (batch.length) send(batch);
  await drain(0);
  return out;
}
