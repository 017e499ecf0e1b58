// The worker pool under failure: a worker thread killed mid-batch fails that batch with a typed
// error, is replaced, and the embedder keeps producing the same vectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmbedder } from '../../main/engine/embed/embedder.js';
import { CairnError } from '../../main/engine/errors.js';
import { maxAbsDiff, tempDataDir } from './helpers.js';

test('the pool survives a worker being terminated mid-batch', async (t) => {
  const dataDir = tempDataDir(t);
  const embedder = await createEmbedder({ model: 'cairn/use-lite', dataDir, threads: 2, batchSize: 2 });
  t.after(() => embedder.close());
  const [before] = await embedder.embedDocuments(['The pool keeps working after a crash.']);

  const texts = Array.from({ length: 40 }, (_, i) => `sentence number ${i} about folders and files`);
  // Texts long enough that tokenizing them (plain JavaScript) takes seconds: the worker is stopped
  // there, never inside ONNX Runtime, where ending a thread from outside aborts the whole process
  // (see worker.ts) — which is why the pool itself never does that.
  const long = Array.from({ length: 4 }, (_, i) => `${'folders and files '.repeat(6000)}number ${i}`);
  const running = embedder.embedDocuments(long);
  // Batches are handed to idle workers synchronously, so the first thread holds one now.
  const victim = embedder.pool.threads[0];
  await victim.terminate();
  await assert.rejects(running, (err: unknown) => {
    assert.ok(err instanceof CairnError, 'a CairnError');
    assert.equal(err.code, 'dependency_unavailable');
    assert.match(err.message, /worker stopped while embedding a batch/);
    return true;
  });

  // A replacement is started; the next calls succeed with unchanged vectors.
  const again = await embedder.embedDocuments(texts);
  assert.equal(again.length, texts.length);
  const [after] = await embedder.embedDocuments(['The pool keeps working after a crash.']);
  assert.ok(maxAbsDiff(before, after) < 1e-6);
  assert.ok(!embedder.pool.threads.includes(victim), 'the dead worker is gone');
  assert.equal(embedder.pool.threads.length, 2, 'back to two workers');
});

test('close() terminates the workers and later calls fail with a typed error', async (t) => {
  const dataDir = tempDataDir(t);
  const embedder = await createEmbedder({ model: 'cairn/use-lite', dataDir, threads: 1 });
  const threads = embedder.pool.threads;
  assert.equal(threads.length, 1);
  const exited = new Promise<number>((resolve) => threads[0].once('exit', resolve));
  await embedder.close();
  await exited;
  assert.equal(embedder.pool.threads.length, 0);
  await assert.rejects(
    embedder.embedQuery('x'),
    (err: unknown) => err instanceof CairnError && err.code === 'dependency_unavailable',
  );
});
