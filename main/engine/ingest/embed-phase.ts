import type { IndexStore } from '../index/store.js';
import { vectorRowFor } from '../index/store.js';
import type { ChunkToEmbed, UnembeddedFile } from '../index/file-table.js';
import type { VectorRow } from '../index/schema.js';
import type { Job } from '../jobs/job.js';
import type { Embeddings } from './embeddings.js';
import { embeddingInputHash, embeddingText } from '../index/embedding-input.js';
import type { PassVectors } from '../index/pass-vectors.js';
import { stopIdleParseWorkers } from './parse-source.js';
import { InputHashSet } from './input-hash-set.js';

const FILES_PER_STEP = 64;
/**
 * Files are marked embedded a few hundred at a time: each mark is an update of the `files` table
 * that adds a fragment every later one reads (300 marks of 64 files: 78 ms each by the last,
 * against 38 ms for the last of 38 marks of 512). A crash loses only the marks: the next pass finds
 * those files' vectors by chunk id and embeds nothing again. The folder's embedded count moves with
 * the marks (the job's progress moves with every text); it is exact again when the pass ends.
 */
const MARK_FILES = 512;
const MARK_MS = 10_000;
/**
 * Chunks to embed from which the parse workers are stopped first (a few seconds of embedding at
 * least; they start again with the next parse): `indexing-rss --quick`, 2,057 chunks, peaked at
 * 402-414 MB with them stopped against 435-444 MB with them idle beside the embedding workers.
 */
const STOP_PARSE_WORKERS_FROM = 512;

/**
 * Computes the vectors a folder's chunks still lack, a few files at a time, marking files embedded
 * once all their chunks have vectors. Interrupted (crash, cancel), it resumes from the `embedded`
 * flags and the vectors written: finished files are not embedded again.
 *
 * Vectors are content-addressed by what the model is given, the title line and the chunk's text
 * (`embeddingInputHash`, the key the write-time carry-over uses too): a chunk whose input already
 * has a vector gets a copy, and chunks of one input new in one step are embedded once. What was
 * written before the pass is looked up in the table as it was when the pass began, what the pass
 * embedded in memory (index/pass-vectors.ts says why).
 */
export async function embedPending(
  store: IndexStore,
  emb: Embeddings,
  folder: string,
  job: Job,
  requireModel = false,
): Promise<void> {
  const pending = await store.unembedded(folder);
  if (pending.length === 0) return;
  let embedder;
  try {
    embedder = await emb.get();
  } catch (err) {
    // No model: text search works; status reports the model's error and the coverage. A rebuild,
    // whose point is vectors under the configured model, fails instead of reporting "done".
    if (requireModel) throw err;
    return;
  }
  const table = await emb.vectorsName(true);
  if (!table) return;
  const chunksTotal = pending.reduce((s, p) => s + p.chunks, 0);
  if (chunksTotal >= STOP_PARSE_WORKERS_FROM) stopIdleParseWorkers();
  job.phase('embedding', { chunks_total: chunksTotal, files_total: pending.length });
  // The model is the cost: while one step is embedded, the next step's chunks are read and the
  // last step's vectors written, so the workers do not wait on LanceDB between steps (10k chunks:
  // 14 steps, 80-130 ms of reads and writes each). A step's files are marked embedded only after
  // its vectors are written. The vectors of the two steps before are kept: the last one's may
  // still be being written, and a text repeated that close is copied without a read.
  const recent: Map<string, Float32Array>[] = [];
  // Every input this pass embedded: one not in `recent` is in the table already.
  const embedded = new InputHashSet();
  let writing: Promise<Settled<void>> = Promise.resolve({ ok: undefined });
  let unmarked: UnembeddedFile[] = [];
  let markedAt = performance.now();
  const mark = async () => {
    const files = unmarked;
    unmarked = [];
    markedAt = performance.now();
    await store.markEmbedded(folder, files);
  };
  const lookups = await store.passVectors(table);
  const read = (i: number) => (i < pending.length ? settled(readStep(lookups, store, pending, i)) : null);
  let next = read(0);
  try {
    for (let i = 0; next; i += FILES_PER_STEP) {
      await job.checkpoint();
      const { paths, step, chunks, have } = unwrap(await next);
      next = read(i + FILES_PER_STEP);
      const copied: VectorRow[] = [];
      const todo: Keyed[] = [];
      const earlier: Keyed[] = [];
      for (const chunk of chunks) {
        if (have.has(chunk.id)) continue;
        const input = embeddingInputHash(chunk);
        const v = recent[0]?.get(input) ?? recent[1]?.get(input);
        if (v) copied.push(vectorRowFor(chunk, v));
        else (embedded.mayHave(input) ? earlier : todo).push({ chunk, input });
      }
      if (earlier.length > 0) {
        const found = await lookups.written([...new Set(earlier.map((k) => k.input))]);
        for (const k of earlier) {
          const v = found.get(k.input);
          if (v) copied.push(vectorRowFor(k.chunk, v));
          else todo.push(k);
        }
      }
      const { texts, slot, inputs } = uniqueTexts(todo);
      // Files count as done as their last chunk's vector arrives (vectors arrive in `texts` order),
      // not 64 at a time, so "files" and "chunks" move together; a chunk counts once its text is in.
      const chunkEnds = slot.map((s) => s + 1).sort((a, b) => a - b);
      const lastText = new Map<string, number>();
      todo.forEach(({ chunk }, k) => lastText.set(chunk.path, Math.max(lastText.get(chunk.path) ?? 0, slot[k] + 1)));
      const fileEnds = [...lastText.values()].sort((a, b) => a - b);
      let filesReported = paths.length - fileEnds.length;
      job.advance(filesReported, chunks.length - todo.length);
      let vectors: Float32Array[] = [];
      let nextChunk = 0;
      if (todo.length > 0) {
        let nextFile = 0;
        // The file of the next text to go is the one being embedded ("embedding <file>").
        job.working(texts[0].rel);
        vectors = await embedder.embedDocuments(
          texts.map(embeddingText),
          (n) => {
            const files = countUpTo(fileEnds, nextFile, n);
            const done = countUpTo(chunkEnds, nextChunk, n);
            nextFile += files;
            nextChunk += done;
            job.working(texts[n]?.rel);
            job.advance(files, done);
            filesReported += files;
          },
          () => job.checkpoint(),
        );
        recent.unshift(new Map(inputs.map((input, k) => [input, vectors[k]])));
        recent.length = Math.min(recent.length, 2);
        for (const input of inputs) embedded.add(input);
      }
      unwrap(await writing);
      const rows = [...copied, ...todo.map(({ chunk }, k) => vectorRowFor(chunk, vectors[slot[k]]))];
      const left = todo.length - nextChunk;
      writing = settled(
        (async () => {
          if (rows.length > 0) await store.addVectors(table, rows);
          job.advance(0, left);
          unmarked.push(...step);
          if (unmarked.length >= MARK_FILES || performance.now() - markedAt >= MARK_MS) await mark();
          job.advance(paths.length - filesReported, 0);
        })(),
      );
    }
    unwrap(await writing);
    await mark();
  } finally {
    // Cancelled or failed: nothing of this pass may still be writing once it returns, and the
    // files whose vectors were written are marked. A failure to mark them then is not reported
    // over the error that ended the pass: the next pass finds their vectors by chunk id.
    await writing;
    await next;
    await mark().catch(() => undefined);
    lookups.close();
    job.working(undefined);
  }
}

interface Step {
  paths: string[];
  step: UnembeddedFile[];
  chunks: ChunkToEmbed[];
  /** Chunks that have a vector already, or got a copy of one with the same input. */
  have: Set<string>;
}

async function readStep(lookups: PassVectors, store: IndexStore, pending: UnembeddedFile[], i: number): Promise<Step> {
  const step = pending.slice(i, i + FILES_PER_STEP);
  const paths = step.map((p) => p.path);
  const chunks = await store.chunksToEmbed(paths);
  const have = await lookups.fromBefore(chunks);
  return { paths, step, chunks, have };
}

/**
 * A promise that never rejects, for work that runs while other work is awaited: a rejection
 * nobody awaits yet would end the process. `unwrap` rethrows where it is awaited.
 */
type Settled<T> = { ok: T } | { error: unknown };

function settled<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (ok) => ({ ok }),
    (error: unknown) => ({ error }),
  );
}

function unwrap<T>(r: Settled<T>): T {
  if ('error' in r) throw r.error;
  return r.ok;
}

interface Keyed {
  chunk: ChunkToEmbed;
  /** What the model is given, hashed (embeddingInputHash). */
  input: string;
}

/** One chunk per model input, in first-seen order, and for each chunk the index of its input. */
function uniqueTexts(chunks: Keyed[]): { texts: ChunkToEmbed[]; slot: number[]; inputs: string[] } {
  const texts: ChunkToEmbed[] = [];
  const inputs: string[] = [];
  const byInput = new Map<string, number>();
  const slot = chunks.map(({ chunk, input }) => {
    let s = byInput.get(input);
    if (s === undefined) {
      s = texts.length;
      byInput.set(input, s);
      texts.push(chunk);
      inputs.push(input);
    }
    return s;
  });
  return { texts, slot, inputs };
}

/** How many of the sorted `ends` from `from` on are at most `n`. */
function countUpTo(ends: number[], from: number, n: number): number {
  let k = from;
  while (k < ends.length && ends[k] <= n) k++;
  return k - from;
}
