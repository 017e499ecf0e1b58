/**
 * A synthetic corpus folder (and optionally an engine home that has indexed it), made once per run
 * and shared by the benchmarks that need the same size, because indexing 100k chunks with vectors
 * is the slowest step of the suite.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCorpus, type CorpusSummary } from '../corpus/synthetic.js';

export interface CorpusFolder {
  dir: string;
  summary: CorpusSummary;
  chunks: number;
}

const folders = new Map<number, CorpusFolder>();
let base: string | undefined;

function baseDir(): string {
  if (!base) {
    base = mkdtempSync(join(tmpdir(), 'cairn-bench-corpus-'));
    process.on('exit', () => rmSync(base as string, { recursive: true, force: true }));
  }
  return base;
}

/** The generated corpus of `chunks` target chunks, written on first use. */
export function corpusFolder(chunks: number): CorpusFolder {
  let f = folders.get(chunks);
  if (!f) {
    const dir = join(baseDir(), `corpus-${chunks}`);
    mkdirSync(dir, { recursive: true });
    f = { dir, summary: writeCorpus(dir, { chunks, seed: 42 }), chunks };
    folders.set(chunks, f);
  }
  return f;
}

/** A fresh, empty folder under the shared base (for engine homes that outlive one benchmark). */
export function sharedDir(name: string): string {
  const dir = join(baseDir(), name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The corpus written once into a kept folder (`--reuse-index`): rewriting the same bytes would
 * still change every mtime and make a reused index re-read all its files.
 */
export function keptCorpusFolder(dir: string, chunks: number): CorpusFolder {
  const marker = join(dir, '..', 'corpus-summary.json');
  if (existsSync(marker)) return { dir, summary: JSON.parse(readFileSync(marker, 'utf8')) as CorpusSummary, chunks };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const summary = writeCorpus(dir, { chunks, seed: 42 });
  writeFileSync(marker, JSON.stringify(summary));
  return { dir, summary, chunks };
}
