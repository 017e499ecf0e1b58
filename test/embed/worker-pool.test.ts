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
  assert.equal(embedder.pool.threads.length, 2, 'documents run on both workers');

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

test('queries keep one worker; documents start the rest, which stop again once documents stop coming', async (t) => {
  const dataDir = tempDataDir(t);
  const embedder = await createEmbedder({
    model: 'cairn/use-lite',
    dataDir,
    threads: 2,
    batchSize: 2,
    extraWorkersIdleMs: 3000,
  });
  t.after(() => embedder.close());
  assert.equal(embedder.pool.threads.length, 1, 'one worker at start');
  const queries = Array.from({ length: 24 }, (_, i) => `where is note ${i} about the pending queue`);
  const first = await Promise.all(queries.map((q) => embedder.embedQuery(q)));
  assert.equal(embedder.pool.threads.length, 1, '24 concurrent queries on one worker');
  const docs = Array.from({ length: 12 }, (_, i) => `document ${i} about folders and files`);
  assert.equal((await embedder.embedDocuments(docs)).length, docs.length);
  // The control: documents do start the second worker, and it stays a while after them.
  assert.equal(embedder.pool.threads.length, 2, 'documents start the second worker');
  // Whichever is idle first is the one asked to stop.
  const exited = Promise.race(
    embedder.pool.threads.map((w) => new Promise<number>((resolve) => w.once('exit', resolve))),
  );
  assert.equal(await exited, 0, 'one worker stopped by itself (asked, not terminated)');
  assert.equal(embedder.pool.threads.length, 1);
  const again = await Promise.all(queries.map((q) => embedder.embedQuery(q)));
  again.forEach((v, i) => assert.ok(maxAbsDiff(v, first[i]) < 1e-6, 'same vectors from the remaining worker'));
  await embedder.embedDocuments(docs.slice(0, 4));
  assert.equal(embedder.pool.threads.length, 2, 'and documents start it again');
});
