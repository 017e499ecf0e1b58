// A sequential pool (kernel/worker-pool.ts) sends a worker its next jobs while it runs one, so the
// worker never waits for the main thread between jobs; the parse workers run that way. A job queued
// behind another must be timed from its own start, and must not fail with a worker killed or
// crashed by the job before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerPool, type Slot } from '../../main/engine/kernel/worker-pool.js';

interface Job {
  ms: number;
  exit?: boolean;
}

function pool(sequential: boolean, dieAtStart = false): WorkerPool<Job, string, { type: string; id: number }> {
  const p: WorkerPool<Job, string, { type: string; id: number }> = new WorkerPool({
    workerData: () => ({ dieAtStart }),
    maxStartFailures: 2,
    callerUrl: import.meta.url,
    script: 'sleepy-worker',
    size: 1,
    perWorker: 4,
    sequential,
    handshake: true,
    post: (job, id) => ({ ...job, id }),
    onMessage: (slot: Slot, m) => {
      if (m.type === 'ready') p.ready(slot);
      else p.answer(slot, m.id, { value: `done ${m.id}` });
    },
    timeoutError: (_job, ms) => new Error(`timed out after ${ms} ms`),
    crashError: (_job, code) => new Error(`worker exited with ${code}`),
    unavailableError: (why) => new Error(`unavailable: ${why}`),
    closedError: () => new Error('closed'),
  });
  return p;
}

function run(p: WorkerPool<Job, string>, job: Job, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => p.submit({ payload: job, timeoutMs, resolve, reject }));
}

const outcome = (r: PromiseSettledResult<string>) => (r.status === 'fulfilled' ? r.value : String(r.reason));

test('a job queued behind another in a sequential worker is timed from its own start', async () => {
  for (const sequential of [true, false]) {
    const p = pool(sequential);
    try {
      await p.startOne();
      // Each job alone is well inside its time; the last two wait about 400 ms behind the first.
      const results = await Promise.allSettled([
        run(p, { ms: 400 }, 2000),
        run(p, { ms: 20 }, 250),
        run(p, { ms: 20 }, 250),
      ]);
      if (sequential)
        assert.deepEqual(results.map(outcome), ['done 1', 'done 2', 'done 3'], 'sequential: every job answers');
      // Control: timed from when it was sent, the second job runs out while the first still runs,
      // and its worker is killed with all it held.
      else
        assert.ok(
          results.map(outcome).some((o) => /timed out/.test(o)),
          results.map(outcome).join(', '),
        );
    } finally {
      await p.close();
    }
  }
});

test('when a sequential worker dies, only the job it was running fails; those behind it are sent again', async () => {
  for (const sequential of [true, false]) {
    const p = pool(sequential);
    try {
      await p.startOne();
      const results = (
        await Promise.allSettled([
          run(p, { ms: 50, exit: true }, 5000),
          run(p, { ms: 10 }, 5000),
          run(p, { ms: 10 }, 5000),
        ])
      ).map(outcome);
      assert.match(results[0], /exited with 3/);
      if (sequential) assert.deepEqual(results.slice(1), ['done 4', 'done 5'], 'sent again to a new worker');
      // Control: without the order known, every job the dead worker held fails with it.
      else
        assert.deepEqual(
          results.slice(1).map((r) => /exited with 3/.test(r)),
          [true, true],
        );
    } finally {
      await p.close();
    }
  }
});

test('a sequential worker that runs out of time on one job kills only that job', async () => {
  const p = pool(true);
  try {
    await p.startOne();
    const results = (
      await Promise.allSettled([run(p, { ms: 2000 }, 200), run(p, { ms: 10 }, 1000), run(p, { ms: 10 }, 1000)])
    ).map(outcome);
    assert.match(results[0], /timed out after 200 ms/);
    assert.deepEqual(results.slice(1), ['done 4', 'done 5']);
  } finally {
    await p.close();
  }
});

test('jobs sent to a sequential worker that dies before it is ready fail as the pool being unavailable', async () => {
  const p = pool(true, true);
  try {
    const results = (
      await Promise.allSettled([run(p, { ms: 10 }, 1000), run(p, { ms: 10 }, 1000), run(p, { ms: 10 }, 1000)])
    ).map(outcome);
    // None of them ran: the caller falls back (the parse pool parses on its own thread), no file is
    // recorded as having crashed its worker.
    assert.deepEqual(
      results.map((r) => r.replace(/:.*/s, '')),
      ['Error', 'Error', 'Error'],
    );
    for (const r of results) assert.match(r, /unavailable: exit code 4/);
  } finally {
    await p.close();
  }
  // Control: a worker that starts answers the same jobs.
  const ok = pool(true);
  try {
    assert.equal(await run(ok, { ms: 10 }, 1000), 'done 1');
  } finally {
    await ok.close();
  }
});
