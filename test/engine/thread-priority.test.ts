// Workers that run a request's hostile input (a document's extraction; grep's are lowered once a
// batch runs long, test/engine/grep-priority.test.ts) start at a
// lower CPU priority from their first statement, so the main thread is scheduled first even while
// they load or spin until their deadline. Linux only (elsewhere the preamble does nothing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { workerScript } from '../../main/engine/worker-script.js';
import { lowerPriorityPreamble } from '../../main/engine/thread-priority.js';

function niceOf(opts: { nice?: number }): Promise<number> {
  const { script, eval: isEval } = workerScript(import.meta.url, 'nice-worker', opts);
  const worker = new Worker(script, { eval: isEval });
  return new Promise((resolve, reject) => {
    worker.once('message', (n: number) => {
      resolve(n);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

test(
  "a worker asked to run at nice 5 does, from its start; one not asked keeps the caller's priority",
  { skip: process.platform !== 'linux' && 'niceness per thread is read from /proc (Linux)' },
  async () => {
    const own = (await import('node:os')).getPriority();
    assert.equal(await niceOf({ nice: 5 }), Math.max(5, own));
    // Control: the same worker without the option runs at the caller's niceness.
    assert.equal(await niceOf({}), own);
    // The main thread itself is untouched.
    assert.equal((await import('node:os')).getPriority(), own);
  },
);

test('the preamble refuses a niceness outside 0..19', () => {
  assert.throws(() => lowerPriorityPreamble(-5), RangeError);
  assert.throws(() => lowerPriorityPreamble(20), RangeError);
  assert.match(lowerPriorityPreamble(7), /setPriority\(tid, 7\)/);
});
