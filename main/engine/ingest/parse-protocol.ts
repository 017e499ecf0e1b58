/** Messages between the indexer (main thread) and its parse workers. */
import type { ParseTask } from './parse-task.js';
import type { FileRows } from './rows.js';

/**
 * Whose tokenizer sizes the chunks. `key` names it (the model id), so a worker drops the counts it
 * learned when the model changes; `model: false` is the pessimistic count used without a model.
 */
export interface CounterSpec {
  key: string;
  model: boolean;
  /** The model's folder: a worker counts with its tokenizer.json itself when it can (unigram-tokenizer.ts). */
  tokenizerDir?: string;
}

export type ToParseWorker =
  | { type: 'parse'; id: number; task: ParseTask; maxTokens: number; counter: CounterSpec }
  | { type: 'counts'; id: number; counts: number[] };

export type FromParseWorker =
  | { type: 'ready' }
  | { type: 'done'; id: number; rows: FileRows | 'unchanged' }
  | { type: 'failed'; id: number; message: string }
  /** Token counts of words this worker has not seen, answered with `counts` (asynchronously). */
  | { type: 'words'; id: number; key: string; words: string[] }
  /** One word's count, answered through the worker's shared memory while the worker blocks. */
  | { type: 'word'; key: string; word: string };

/** Layout of a worker's shared answer cell: [answered flag, token count]. */
export const ANSWERED = 0;
export const COUNT = 1;
