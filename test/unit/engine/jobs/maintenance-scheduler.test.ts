// Unit: the maintenance scheduler (main/engine/jobs/maintenance-scheduler.ts) over a real job
// queue with a counting pass, no index. A pass is followed by exactly one more once the keep
// window has passed (it deletes what the first replaced), and that follow-up schedules no other:
// an idle engine does not maintain forever; and updates that never pause still get passes. Counts
// are asserted, never times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobQueue } from '../../../../main/engine/jobs/queue.js';
import { MaintenanceScheduler } from '../../../../main/engine/jobs/maintenance-scheduler.js';

const KEEP_MS = 100;
/** Past the follow-up (keep window + the 2 s debounce) and well past where a third pass would come. */
const SETTLE_MS = 2 * (KEEP_MS + 2000) + 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function passesAfterOne(keepVersionsMs: number | null, start: (s: MaintenanceScheduler) => Promise<void>) {
  const queue = new JobQueue();
  let passes = 0;
  const s = new MaintenanceScheduler(
    queue,
    async () => {
      passes++;
    },
    keepVersionsMs,
  );
  try {
    await start(s);
    // The timers are unref'd (they never keep a process alive): this wait keeps the test alive.
    await sleep(SETTLE_MS);
    await queue.idle();
    return passes;
  } finally {
    s.close();
  }
}

test('a pass asked for now is followed by one pass after the keep window, and no more', async () => {
  assert.equal(await passesAfterOne(KEEP_MS, (s) => s.runNow()), 2);
});

test('a debounced pass is followed the same way', async () => {
  assert.equal(await passesAfterOne(KEEP_MS, async (s) => s.schedule(0)), 2);
});

test('the control: without a keep window there is no follow-up', async () => {
  assert.equal(await passesAfterOne(null, (s) => s.runNow()), 1);
});

test('a pass asked for now takes the place of a pending debounced one', async () => {
  // A job's end armed a pass (debounced); the pass asked for now covers the same writes.
  assert.equal(
    await passesAfterOne(null, async (s) => {
      s.schedule();
      await s.runNow();
    }),
    1,
  );
  // The control: the debounced pass alone runs once, so the count above can tell them apart.
  assert.equal(await passesAfterOne(null, async (s) => s.schedule()), 1);
  assert.equal(
    await passesAfterOne(null, async (s) => {
      await s.runNow();
      s.schedule(); // a write after the pass asked for now still gets its own
    }),
    2,
  );
});

test('a closed scheduler starts no follow-up', async () => {
  assert.equal(
    await passesAfterOne(KEEP_MS, async (s) => {
      await s.runNow();
      s.close();
    }),
    1,
  );
});

/** Passes run while updates keep coming every 50 ms for `forMs`, each re-arming the 2 s debounce. */
async function passesDuringStream(maxWaitMs: number, forMs: number) {
  const queue = new JobQueue();
  let passes = 0;
  const s = new MaintenanceScheduler(
    queue,
    async () => {
      passes++;
    },
    null,
    maxWaitMs,
  );
  try {
    const end = Date.now() + forMs;
    while (Date.now() < end) {
      s.schedule();
      await sleep(50);
    }
    await queue.idle();
    return passes;
  } finally {
    s.close();
  }
}

test('updates that never pause still get a pass every max wait', async () => {
  assert.ok((await passesDuringStream(300, 1500)) >= 2);
});

test('the control: with no max wait, the same stream starves maintenance', async () => {
  assert.equal(await passesDuringStream(Number.POSITIVE_INFINITY, 1500), 0);
});
