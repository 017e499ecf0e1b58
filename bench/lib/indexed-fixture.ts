/**
 * An engine home that has indexed a synthetic corpus (text and vectors), built once per run and
 * shared: latency, vector recall, MCP and start-up all need the same 10k/100k-chunk index, and
 * embedding 100k chunks is the slowest step of the suite.
 */
import { join } from 'node:path';
import { corpusFolder, sharedDir } from './corpus-fixture.js';
import { indexFolderAndWait, openBenchEngine } from './engine.js';
import type { EngineApi } from '../../main/engine/api.js';

export interface IndexedCorpus {
  /** The indexed folder. */
  dir: string;
  /** The engine's data folder (CAIRN_HOME). */
  home: string;
  files: number;
  chunks: number;
  embedded: number;
  bytes: number;
  index_s: number;
}

const built = new Map<number, Promise<IndexedCorpus>>();

/**
 * Fixture sizes: 10k and 100k chunks in a full run. Quick mode (CI) uses one small fixture
 * (`--fixture-chunks`, default 2,000): embedding 10k chunks on two busy cores takes minutes.
 */
export function fixtureSizes(quick: boolean, options: Map<string, string>): number[] {
  const raw = options.get('fixture-chunks');
  if (raw !== undefined) return raw.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return quick ? [2_000] : [10_000, 100_000];
}

/** Settings every benchmark engine uses: no watcher (a static corpus), logs quiet. */
export const QUIET_SETTINGS = { 'watch.enabled': false };

export function indexedCorpus(root: string, chunks: number, log: (l: string) => void): Promise<IndexedCorpus> {
  let p = built.get(chunks);
  if (!p) {
    p = build(root, chunks, log);
    built.set(chunks, p);
    // A failed build must not be cached: the next benchmark retries and reports its own error.
    p.catch(() => built.delete(chunks));
  }
  return p;
}

async function build(root: string, chunks: number, log: (l: string) => void): Promise<IndexedCorpus> {
  const corpus = corpusFolder(chunks);
  const home = sharedDir(`home-${chunks}`);
  log(`   building the ${chunks}-chunk fixture: ${corpus.summary.files} files, ${(corpus.summary.bytes / 2 ** 20).toFixed(1)} MB`);
  const engine = await openBenchEngine(root, home, QUIET_SETTINGS);
  try {
    const t0 = performance.now();
    const c = await indexFolderAndWait(engine, corpus.dir, { vectors: true, onProgress: log });
    await engine.idle();
    const index_s = (performance.now() - t0) / 1000;
    log(`   fixture ready: ${c.chunks} chunks, ${c.embedded} embedded, in ${index_s.toFixed(1)} s`);
    return { dir: corpus.dir, home, files: c.files, chunks: c.chunks, embedded: c.embedded, bytes: corpus.summary.bytes, index_s };
  } finally {
    await engine.close();
  }
}

/** Opens the fixture's home with the benchmark settings. */
export function openFixture(root: string, fx: IndexedCorpus): Promise<EngineApi> {
  return openBenchEngine(root, fx.home, QUIET_SETTINGS);
}

export function indexDir(fx: IndexedCorpus): string {
  return join(fx.home, 'index');
}
