/**
 * A parse worker: reads, hashes, parses and chunks files into rows off the main thread. Token
 * counts come from the model's tokenizer.json, read here (unigram-tokenizer.ts). For a tokenizer that
 * counter cannot reproduce exactly, from the main thread's tokenizer: the words of a file are asked
 * for in one message before it is parsed; a word the chunker makes up on the way (a long line cut
 * mid-word) is asked for synchronously.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CachedTokenCounter } from '../embed/token-counter.js';
import { readUnigramTokenizerSync } from '../embed/unigram-files.js';
import { decodeText, kindOf, type TokenBudget } from '../parse/index.js';
import { ANSWERED, COUNT, type CounterSpec, type FromParseWorker, type ToParseWorker } from './parse-protocol.js';
import { fallbackCount, readAndParse, type ParseTask } from './parse-task.js';

/** A main thread this long silent is stuck: the worker gives up (and is replaced) rather than hang. */
const ANSWER_TIMEOUT_MS = 120_000;
/** Kinds whose words are only known after extraction: asked for one by one as the chunker meets them. */
const EXTRACTED = new Set(['pdf', 'docx', 'html']);

const port = parentPort as NonNullable<typeof parentPort>;
const cell = new Int32Array(workerData.shared as SharedArrayBuffer);
const send = (m: FromParseWorker) => port.postMessage(m);

let spec: CounterSpec = { key: '', model: false };
let counter = new CachedTokenCounter(askOne);
/** Counting on this thread from the model's tokenizer.json; else each new word is asked for. */
let local = false;

function localCounter(dir: string | undefined): ((word: string) => number) | null {
  return (dir ? readUnigramTokenizerSync(dir)?.count : null) ?? null;
}
const pending = new Map<number, (counts: number[]) => void>();
let nextAsk = 1;

function askOne(word: string): number {
  Atomics.store(cell, ANSWERED, 0);
  send({ type: 'word', key: spec.key, word });
  if (Atomics.wait(cell, ANSWERED, 0, ANSWER_TIMEOUT_MS) === 'timed-out') {
    // A late answer would land in the cell of a later question: this thread must not go on.
    process.exit(70);
  }
  return Atomics.load(cell, COUNT);
}

function askMany(words: string[]): Promise<number[]> {
  const id = nextAsk++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    send({ type: 'words', id, key: spec.key, words });
  });
}

async function learnWords(task: ParseTask, bytes: Buffer): Promise<void> {
  if (!spec.model || local || EXTRACTED.has(kindOf(task.src.rel || task.src.path))) return;
  const words = counter.unknownWords(decodeText(bytes).split(/\s+/));
  if (words.length > 0) counter.learn(words, await askMany(words));
}

async function parse(m: Extract<ToParseWorker, { type: 'parse' }>): Promise<void> {
  if (m.counter.key !== spec.key || m.counter.model !== spec.model) {
    spec = m.counter;
    const own = spec.model ? localCounter(spec.tokenizerDir) : null;
    local = own !== null;
    counter = new CachedTokenCounter(own ?? askOne);
  }
  const budget: TokenBudget = {
    maxTokens: m.maxTokens,
    countTokens: spec.model ? (t) => counter.count(t) : fallbackCount,
    countRanges: spec.model ? (t) => counter.ranges(t) : undefined,
  };
  try {
    // Read synchronously: 19k small Markdown files were searchable in 20-21 s instead of 32-37 s,
    // the thread pool's round trips (five per file) having left this thread idle half the time.
    const rows = await readAndParse(m.task, budget, (bytes) => learnWords(m.task, bytes), true);
    send({ type: 'done', id: m.id, rows });
  } catch (err) {
    send({ type: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) });
  }
}

/** Files are parsed one after another, in the order sent: the pool times each from the answer before it. */
let queue: Promise<void> = Promise.resolve();

port.on('message', (m: ToParseWorker) => {
  if (m.type === 'parse')
    queue = queue
      .then(() => parse(m))
      .catch((err: unknown) =>
        send({ type: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) }),
      );
  else {
    pending.get(m.id)?.(m.counts);
    pending.delete(m.id);
  }
});
send({ type: 'ready' });
