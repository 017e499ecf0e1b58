import type { IndexStore } from '../index/store.js';
import { vectorRowFor } from '../index/store.js';
import type { Job } from '../jobs/job.js';
import type { Embeddings } from './embeddings.js';
import { embeddingText } from './rows.js';

const FILES_PER_STEP = 64;

/**
 * Computes the vectors a folder's chunks still lack, a few files at a time, marking each file
 * embedded once all its chunks have vectors. Interrupted (crash, cancel), it resumes from the
 * `embedded` flags: finished files are not embedded again.
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
  job.phase('embedding', { chunks_total: pending.reduce((s, p) => s + p.chunks, 0), files_total: pending.length });
  for (let i = 0; i < pending.length; i += FILES_PER_STEP) {
    await job.checkpoint();
    const step = pending.slice(i, i + FILES_PER_STEP);
    const paths = step.map((p) => p.path);
    const chunks = await store.chunksToEmbed(paths);
    const have = await store.vectorIds(
      table,
      chunks.map((c) => c.id),
    );
    const todo = chunks.filter((c) => !have.has(c.id));
    // Files count as done as their last chunk's vector arrives (vectors arrive in todo order), not
    // 64 at a time, so "files" and "chunks" move together.
    const lastChunk = new Map<string, number>();
    todo.forEach((c, k) => lastChunk.set(c.path, k + 1));
    const ends = [...lastChunk.values()].sort((a, b) => a - b);
    let filesReported = paths.length - ends.length;
    job.advance(filesReported, chunks.length - todo.length);
    if (todo.length > 0) {
      let reported = 0;
      let next = 0;
      const vectors = await embedder.embedDocuments(
        todo.map(embeddingText),
        (n) => {
          let files = 0;
          while (next < ends.length && ends[next] <= n) {
            next++;
            files++;
          }
          job.advance(files, n - reported);
          filesReported += files;
          reported = n;
        },
        () => job.checkpoint(),
      );
      await store.addVectors(
        table,
        todo.map((c, k) => vectorRowFor(c, vectors[k])),
      );
    }
    await store.markEmbedded(folder, step);
    job.advance(paths.length - filesReported, 0);
  }
}
