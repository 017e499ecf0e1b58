/**
 * An engine home that has indexed a synthetic corpus (text and vectors), built once per run and
 * shared: latency, vector recall, MCP and start-up all need the same 10k/100k-chunk index, and
 * embedding 100k chunks is the slowest step of the suite. With `--reuse-index` it is kept under
 * bench/.cache/fixtures and reused by later runs (an unchanged corpus costs one `update` pass).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusFolder, keptCorpusFolder, sharedDir, type CorpusFolder } from './corpus-fixture.js';
import { indexFolderAndWait, openBenchEngine, type BenchEngine } from './engine.js';
import { useSyntheticDocumentVectors, type FixtureVectors } from './synthetic-vectors.js';

export interface IndexedCorpus {
  /** The indexed folder. */
  dir: string;
  /** The engine's data folder (CAIRN_HOME). */
  home: string;
  files: number;
  chunks: number;
  embedded: number;
  bytes: number;
  /** Seconds this run spent indexing (near 0 for a reused fixture). */
  index_s: number;
  /** `synthetic`: document vectors are bag-of-words vectors at the model's dimension, not the model's. */
  vectors: FixtureVectors;
  reused: boolean;
}

export interface FixtureOptions {
  vectors: FixtureVectors;
  /** Keep the fixture in bench/.cache/fixtures across runs. */
  keep: boolean;
}

const built = new Map<string, Promise<IndexedCorpus>>();

/**
 * Fixture sizes: 10k and 100k chunks in a full run. Quick mode (CI) uses one small fixture
 * (`--fixture-chunks`, default 2,000): embedding 10k chunks on two busy cores takes minutes.
 */
export function fixtureSizes(quick: boolean, options: Map<string, string>): number[] {
  const raw = options.get('fixture-chunks');
  if (raw !== undefined)
    return raw
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
  return quick ? [2_000] : [10_000, 100_000];
}

/** `--fixture-vectors model|synthetic` (default model) and `--reuse-index`. */
export function fixtureOptions(options: Map<string, string>): FixtureOptions {
  const v = options.get('fixture-vectors') ?? 'model';
  if (v !== 'model' && v !== 'synthetic') throw new Error(`--fixture-vectors must be model or synthetic, got ${v}`);
  return { vectors: v, keep: options.has('reuse-index') };
}

/** Settings every benchmark engine uses: no watcher (a static corpus), logs quiet. */
export const QUIET_SETTINGS = { 'watch.enabled': false };

export function indexedCorpus(
  root: string,
  chunks: number,
  log: (l: string) => void,
  opts: FixtureOptions = { vectors: 'model', keep: false },
): Promise<IndexedCorpus> {
  const key = `${chunks}-${opts.vectors}-${opts.keep ? 'kept' : 'tmp'}`;
  let p = built.get(key);
  if (!p) {
    p = build(root, chunks, log, opts);
    built.set(key, p);
    // A failed build must not be cached: the next benchmark retries and reports its own error.
    p.catch(() => built.delete(key));
  }
  return p;
}

/** Changes to the generator or to the synthetic vectors make a new kept fixture, never a stale one. */
function generatorKey(root: string): string {
  const h = createHash('sha256');
  for (const f of ['bench/corpus/synthetic.ts', 'bench/corpus/words.ts', 'bench/lib/synthetic-vectors.ts'])
    h.update(readFileSync(join(root, f)));
  return h.digest('hex').slice(0, 12);
}

async function build(
  root: string,
  chunks: number,
  log: (l: string) => void,
  opts: FixtureOptions,
): Promise<IndexedCorpus> {
  let corpus: CorpusFolder;
  let home: string;
  if (opts.keep) {
    const base = join(root, 'bench/.cache/fixtures', `${chunks}-${opts.vectors}-${generatorKey(root)}`);
    corpus = keptCorpusFolder(join(base, 'corpus'), chunks);
    home = join(base, 'home');
  } else {
    corpus = corpusFolder(chunks);
    home = sharedDir(`home-${chunks}-${opts.vectors}`);
  }
  log(
    `   ${opts.keep ? 'opening (building if needed) the kept' : 'building the'} ${chunks}-chunk fixture (${opts.vectors} vectors): ${corpus.summary.files} files, ${(corpus.summary.bytes / 2 ** 20).toFixed(1)} MB`,
  );
  const engine = await openBenchEngine(root, home, QUIET_SETTINGS);
  try {
    await dropForeignFolders(engine, corpus.dir, log);
    const kept = (await engine.folders()).find(
      (f) => f.path === corpus.dir && f.chunks > 0 && f.embedded_chunks === f.chunks && f.state !== 'error',
    );
    // A kept corpus is never rewritten (see keptCorpusFolder), so a complete index under the same
    // contract is used as it is: no update pass, whose commits only add noise and versions.
    if (kept && !(await engine.status()).contract_mismatch) {
      // A build interrupted after its vectors may lack the ANN index; with nothing pending this is quick.
      await engine.runMaintenance();
      log(`   fixture reused: ${kept.chunks} chunks, ${kept.embedded_chunks} embedded (${opts.vectors} vectors)`);
      return {
        dir: corpus.dir,
        home,
        files: kept.files,
        chunks: kept.chunks,
        embedded: kept.embedded_chunks,
        bytes: corpus.summary.bytes,
        index_s: 0,
        vectors: opts.vectors,
        reused: true,
      };
    }
    const reused = kept !== undefined;
    if (opts.vectors === 'synthetic') await useSyntheticDocumentVectors(engine);
    const t0 = performance.now();
    const c = await indexFolderAndWait(engine, corpus.dir, { vectors: true, onProgress: log });
    await maintainAfterJobs(engine);
    const index_s = (performance.now() - t0) / 1000;
    log(
      `   fixture ready: ${c.chunks} chunks, ${c.embedded} embedded (${opts.vectors} vectors), ${reused ? 'reused' : 'built'} in ${index_s.toFixed(1)} s`,
    );
    return {
      dir: corpus.dir,
      home,
      files: c.files,
      chunks: c.chunks,
      embedded: c.embedded,
      bytes: corpus.summary.bytes,
      index_s,
      vectors: opts.vectors,
      reused,
    };
  } finally {
    await engine.close();
  }
}

/**
 * A kept home copied or moved from another checkout still lists that checkout's corpus, and
 * indexing this one beside it doubles the index: searches scoped to this corpus then filter an
 * index twice the size the results name. Removed, then compacted (which also drops the removed
 * rows from the ANN index), the home holds what the fixture says.
 */
async function dropForeignFolders(engine: BenchEngine, dir: string, log: (l: string) => void): Promise<void> {
  const foreign = (await engine.folders()).filter((f) => f.path !== dir);
  if (foreign.length === 0) return;
  for (const f of foreign) {
    log(`   removing ${f.path} from the fixture's home (${f.chunks} chunks of another checkout)`);
    await engine.removeFolder(f.path);
  }
  await maintainAfterJobs(engine);
}

/**
 * The ANN index and compaction, as a person's engine would have them after its debounce. The
 * engine schedules its own pass 2 s after a job; one of ours beside it would race its cleanup
 * (a commit then misses a transaction file the other pruned), so wait for it, then run one more.
 */
async function maintainAfterJobs(engine: BenchEngine): Promise<void> {
  await new Promise((r) => setTimeout(r, 2500));
  await engine.idle();
  await engine.runMaintenance();
}

/** Opens the fixture's home with the benchmark settings. */
export function openFixture(root: string, fx: IndexedCorpus): Promise<BenchEngine> {
  return openBenchEngine(root, fx.home, QUIET_SETTINGS);
}

export function indexDir(fx: IndexedCorpus): string {
  return join(fx.home, 'index');
}

/** The note a result carries when its fixture's vectors are not the model's. */
export function vectorsNote(fx: IndexedCorpus): string | null {
  return fx.vectors === 'synthetic'
    ? `The ${fx.chunks}-chunk fixture holds synthetic document vectors (bag-of-words directions at the model's dimension, --fixture-vectors synthetic), not the model's: timings and memory depend on count and dimension, but vector recall on them does not predict recall on real embeddings.`
    : null;
}
