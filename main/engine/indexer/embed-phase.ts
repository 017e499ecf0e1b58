import type { ChunkRow } from '../index/schema.js';
import { and, sqlIn } from '../index/sql.js';
import type { IndexStore } from '../index/store.js';
import { vectorRowFor } from '../index/store.js';
import { retryOnConflict } from '../index/retry.js';
import type { Job } from '../jobs/job.js';
import type { Embeddings } from './embeddings.js';
import { embeddingText } from './rows.js';

const FILES_PER_STEP = 64;

/**
 * Computes the vectors a folder's chunks still lack, a few files at a time, marking each file
 * embedded once all its chunks have vectors. Interrupted (crash, cancel), it resumes from the
 * `embedded` flags: finished files are not embedded again.
 */
export async function embedPending(store: IndexStore, emb: Embeddings, folder: string, job: Job, onStep: () => Promise<void> = async () => undefined, requireModel = false): Promise<void> {
  const pending = (await store.files.query().where(and(sqlIn('folder', [folder]), 'embedded = false', 'chunks > 0') ?? 'false').select(['path', 'chunks']).toArray()) as { path: string; chunks: number }[];
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
  const table = await emb.table(true);
  if (!table) return;
  job.phase('embedding', { chunks_total: pending.reduce((s, p) => s + p.chunks, 0), files_total: pending.length });
  for (let i = 0; i < pending.length; i += FILES_PER_STEP) {
    await job.checkpoint();
    const paths = pending.slice(i, i + FILES_PER_STEP).map((p) => p.path);
    const chunks = (await store.chunks.query().where(sqlIn('path', paths)).select(['id', 'folder', 'path', 'rel', 'ext', 'kind', 'mtime', 'text_hash', 'text', 'heading', 'symbol']).toArray()) as ChunkRow[];
    const have = new Set(((await table.query().where(sqlIn('id', chunks.map((c) => c.id))).select(['id']).toArray()) as { id: string }[]).map((r) => r.id));
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
      await retryOnConflict(() => table.add(todo.map((c, k) => vectorRowFor(c, vectors[k])) as unknown as Record<string, unknown>[]));
    }
    await store.markEmbedded(paths);
    job.advance(paths.length - filesReported, 0);
    await onStep();
  }
}
