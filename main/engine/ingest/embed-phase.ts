import type { IndexStore } from '../index/store.js';
import { vectorRowFor } from '../index/store.js';
import type { ChunkToEmbed } from '../index/file-table.js';
import type { Job } from '../jobs/job.js';
import type { Embeddings } from './embeddings.js';
import { embeddingInputHash, embeddingText } from '../index/embedding-input.js';
import { stopIdleParseWorkers } from './parse-source.js';

const FILES_PER_STEP = 64;
/**
 * Chunks to embed from which the parse workers are stopped first (a few seconds of embedding at
 * least; they start again with the next parse): `indexing-rss --quick`, 2,057 chunks, peaked at
 * 402-414 MB with them stopped against 435-444 MB with them idle beside the embedding workers.
 */
const STOP_PARSE_WORKERS_FROM = 512;

/**
 * Computes the vectors a folder's chunks still lack, a few files at a time, marking each file
 * embedded once all its chunks have vectors. Interrupted (crash, cancel), it resumes from the
 * `embedded` flags: finished files are not embedded again.
 *
 * Vectors are content-addressed by what the model is given, the title line and the chunk's text
 * (`embeddingInputHash`, the key the write-time carry-over uses too): a chunk whose input already
 * has a vector gets a copy, and chunks of one input new in one step are embedded once.
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
  for (let i = 0; i < pending.length; i += FILES_PER_STEP) {
    await job.checkpoint();
    const step = pending.slice(i, i + FILES_PER_STEP);
    const paths = step.map((p) => p.path);
    const chunks = await store.chunksToEmbed(paths);
    // An earlier step of this pass may have embedded the same text since the files were written.
    const have = await store.vectorsFor(table, chunks);
    const todo = chunks.filter((c) => !have.has(c.id));
    const { texts, slot } = uniqueTexts(todo);
    // Files count as done as their last chunk's vector arrives (vectors arrive in `texts` order),
    // not 64 at a time, so "files" and "chunks" move together; a chunk counts once its text is in.
    const chunkEnds = slot.map((s) => s + 1).sort((a, b) => a - b);
    const lastText = new Map<string, number>();
    todo.forEach((c, k) => lastText.set(c.path, Math.max(lastText.get(c.path) ?? 0, slot[k] + 1)));
    const fileEnds = [...lastText.values()].sort((a, b) => a - b);
    let filesReported = paths.length - fileEnds.length;
    job.advance(filesReported, chunks.length - todo.length);
    if (todo.length > 0) {
      let nextFile = 0;
      let nextChunk = 0;
      // The file of the next text to go is the one being embedded ("embedding <file>").
      job.working(texts[0].rel);
      const vectors = await embedder.embedDocuments(
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
      await store.addVectors(
        table,
        todo.map((c, k) => vectorRowFor(c, vectors[slot[k]])),
      );
      job.advance(0, todo.length - nextChunk);
      job.working(undefined);
    }
    await store.markEmbedded(folder, step);
    job.advance(paths.length - filesReported, 0);
  }
}

/** One chunk per model input, in first-seen order, and for each chunk the index of its input. */
function uniqueTexts(chunks: ChunkToEmbed[]): { texts: ChunkToEmbed[]; slot: number[] } {
  const texts: ChunkToEmbed[] = [];
  const byInput = new Map<string, number>();
  const slot = chunks.map((c) => {
    const key = embeddingInputHash(c);
    let s = byInput.get(key);
    if (s === undefined) {
      s = texts.length;
      byInput.set(key, s);
      texts.push(c);
    }
    return s;
  });
  return { texts, slot };
}

/** How many of the sorted `ends` from `from` on are at most `n`. */
function countUpTo(ends: number[], from: number, n: number): number {
  let k = from;
  while (k < ends.length && ends[k] <= n) k++;
  return k - from;
}
