import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Embeddings } from './embeddings.js';
import type { AheadLimits } from './parse-ahead.js';
import { ParseDropped, ParsePool, ParseWorkersUnavailable, type Counter } from './parse-pool.js';
import type { TokenBudget } from '../parse/index.js';
import { fallbackCount, readAndParse, type ParseTask } from './parse-task.js';
import { fileRow, type FileRows } from './rows.js';

/** How one ingest parses its files: on the parse workers, or on this thread when they cannot run. */
export interface ParseSource {
  parse(task: ParseTask, dropped: () => boolean): Promise<FileRows | 'unchanged'>;
  /** How far ahead of the writer files are parsed. */
  ahead: AheadLimits;
  /** Parsing blocks this thread between awaits, so the ingest loop yields to queries per file. */
  yieldPerFile: boolean;
}

/** About one batch of files ahead: the workers keep parsing through a whole commit. */
const POOLED_AHEAD: AheadLimits = { files: 600, bytes: 64 * 2 ** 20 };
const INLINE_AHEAD: AheadLimits = { files: 0, bytes: 0 };

let shared: ParsePool | null = null;

/** One pool per process: engines opened side by side (tests, the bench) share its threads. */
function pool(): ParsePool {
  shared ??= new ParsePool();
  return shared;
}

/**
 * Chunks must fit the model's window, counted by the model's own tokenizer. When the model cannot
 * load, a deliberately pessimistic count keeps chunks inside the window anyway, so text indexing
 * never waits on the model.
 */
export async function parseSource(emb: Embeddings, useWorkers = true): Promise<ParseSource> {
  // The title line added for embedding costs a few tokens of the window.
  const maxTokens = Math.max(16, emb.spec.maxTokens - 16);
  let budget: TokenBudget;
  let counter: Counter;
  try {
    // The tokenizer alone, not the model: see Embeddings.chunkTokens.
    const t = await emb.chunkTokens();
    budget = { maxTokens, countTokens: t.countTokens, countRanges: t.countRanges };
    // A word has no whitespace, so the model's count of it is its tokenizer's count, cached.
    counter = {
      spec: { key: emb.spec.id, model: true, tokenizerDir: t.dir ?? undefined },
      countWord: t.countWord,
    };
  } catch {
    budget = { maxTokens, countTokens: fallbackCount };
    counter = { spec: { key: '', model: false } };
  }
  const inline: ParseSource = { parse: (task) => readAndParse(task, budget), ahead: INLINE_AHEAD, yieldPerFile: true };
  if (!useWorkers) return inline;
  return {
    ahead: POOLED_AHEAD,
    yieldPerFile: false,
    async parse(task, dropped) {
      try {
        return await pool().parse(task, maxTokens, counter, dropped);
      } catch (err) {
        if (err instanceof ParseDropped) throw err;
        if (err instanceof ParseWorkersUnavailable) {
          await nextTurn();
          return readAndParse(task, budget);
        }
        // The worker died on this file (out of memory on a huge one): the file's error, not the job's.
        return {
          file: fileRow(task.folder, task.src, '', 0, 'unparsable', (err as Error).message),
          chunks: [],
          nodes: [],
          edges: [],
        };
      }
    },
  };
}

/** Starts the parse workers now, so that their start-up overlaps the walk instead of the first batch. */
export function warmParseWorkers(): void {
  pool().warm();
}

/**
 * The parse workers' idle stop, brought forward: a long embedding phase follows the parsing, and
 * idle parse workers would hold their heaps beside the embedding workers until their timer ran.
 * Busy ones (another folder parsing) stay.
 */
export function stopIdleParseWorkers(): void {
  shared?.stopIdle();
}

/** The parse worker threads running now (diagnostics and tests). */
export function parseWorkerThreads(): number {
  return shared?.threads ?? 0;
}

/** Stops the shared parse workers (tests that count threads; idle workers stop on their own). */
export async function closeParseWorkers(): Promise<void> {
  const p = shared;
  shared = null;
  await p?.close();
}
