// Unit: the job queue (main/engine/jobs/queue.ts) with hand-made runners, no index: one job at a
// time, merging into a queued job, pause/resume/cancel at checkpoints, failures typed, history
// bounded. (Its merge property over random schedules is test/freshness/job-queue.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobQueue } from '../../../../main/engine/jobs/queue.js';
import type { Job } from '../../../../main/engine/jobs/job.js';
import { CairnError } from '../../../../main/engine/errors.js';

/** A runner that waits until released, recording when it ran. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const run = async (job: Job) => {
    log.push(`start ${name}`);
    await opened;
    await job.checkpoint();
    log.push(`end ${name}`);
  };
  return { run, open };
}

const tick = () => new Promise((r) => setImmediate(r));

test('jobs run one at a time, in order, and idle resolves after the last', async () => {
  const q = new JobQueue();
  const log: string[] = [];
  const a = gate(log, 'a');
  const b = gate(log, 'b');
  const ja = q.submit('update', '/a', a.run);
  const jb = q.submit('update', '/b', b.run);
  await tick();
  assert.deepEqual(log, ['start a'], 'b waits for a');
  assert.equal(ja.state, 'running');
  assert.equal(jb.state, 'queued');
  b.open();
  a.open();
  await q.idle();
  assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b']);
  assert.equal(ja.state, 'done');
  assert.equal(jb.info().progress.phase, 'done');
});

test('a job for a folder with one queued merges into it, keeping the wider runner', async () => {
  const q = new JobQueue();
  const log: string[] = [];
  const blocker = gate(log, 'blocker');
  q.submit('update', '/x', blocker.run);
  const first = q.submit('update', '/a', async () => void log.push('paths'), 'paths');
  const merged = q.submit('rebuild', '/a', async () => void log.push('rebuild'));
  const narrower = q.submit('update', '/a', async () => void log.push('paths again'), 'paths');
  assert.equal(merged, first, 'one job for the folder');
  assert.equal(narrower, first);
  assert.equal(first.kind, 'rebuild');
  blocker.open();
  await q.idle();
  assert.deepEqual(log, ['start blocker', 'end blocker', 'rebuild']);
  // Control: once it has run, a new submission is a new job.
  assert.notEqual(
    q.submit('update', '/a', async () => undefined),
    first,
  );
  await q.idle();
});

test('pause holds a job at its next checkpoint; resume lets it finish', async () => {
  const q = new JobQueue();
  const log: string[] = [];
  const g = gate(log, 'p');
  const job = q.submit('update', '/a', g.run);
  await tick();
  q.action(job.id, 'pause');
  g.open();
  await tick();
  await tick();
  assert.equal(job.state, 'paused');
  assert.deepEqual(log, ['start p'], 'held at the checkpoint');
  q.action(job.id, 'resume');
  await q.idle();
  assert.equal(job.state, 'done');
  assert.deepEqual(log, ['start p', 'end p']);
});

test('cancel: a queued job never runs, a running one stops at its checkpoint', async () => {
  const q = new JobQueue();
  const log: string[] = [];
  const g = gate(log, 'run');
  const running = q.submit('update', '/a', g.run);
  const queued = q.submit('update', '/b', async () => void log.push('never'));
  await tick();
  q.action(queued.id, 'cancel');
  assert.equal(queued.state, 'cancelled');
  q.action(running.id, 'cancel');
  g.open();
  await q.idle();
  assert.equal(running.state, 'cancelled');
  assert.deepEqual(log, ['start run']);
  assert.throws(
    () => q.action(running.id, 'resume'),
    (e: unknown) => e instanceof CairnError && e.code === 'conflict',
  );
  assert.throws(
    () => q.action('no-such-id', 'pause'),
    (e: unknown) => e instanceof CairnError && e.code === 'not_found',
  );
});

test('a failing runner fails its job with a typed error and the queue goes on', async () => {
  const q = new JobQueue();
  const bad = q.submit('update', '/a', async () => {
    throw new CairnError('disk_full', 'no space left');
  });
  const odd = q.submit('update', '/b', async () => {
    throw new Error('plain');
  });
  const good = q.submit('update', '/c', async () => undefined);
  await q.idle();
  assert.equal(bad.state, 'failed');
  assert.deepEqual(bad.error, { code: 'disk_full', message: 'no space left' });
  assert.deepEqual(odd.error, { code: 'internal', message: 'plain' });
  assert.equal(good.state, 'done');
});

test('pausing everything pauses new jobs too; finished jobs are kept up to the bound', async () => {
  const q = new JobQueue(2);
  q.setPaused(true);
  const held = q.submit('update', '/a', async () => undefined);
  await tick();
  assert.equal(held.state, 'paused');
  q.setPaused(false);
  await q.idle();
  assert.equal(held.state, 'done');
  for (const f of ['/b', '/c', '/d']) {
    q.submit('update', f, async () => undefined);
    await q.idle();
  }
  // Trimmed when a job is submitted: the two newest finished jobs at the last submission, plus it.
  assert.deepEqual(
    q.list().map((j) => j.folder),
    ['/b', '/c', '/d'],
  );
  assert.equal(q.get(held.id), undefined, 'the oldest finished job was dropped');
});

test('exclusive work is not listed and never runs beside a job', async () => {
  const q = new JobQueue();
  const log: string[] = [];
  const g = gate(log, 'job');
  q.submit('update', '/a', g.run);
  const done = q.runExclusive('update', '*maintenance*', async () => void log.push('maintenance'));
  assert.equal(q.list().length, 1);
  await tick();
  assert.deepEqual(log, ['start job']);
  g.open();
  await done;
  assert.deepEqual(log, ['start job', 'end job', 'maintenance']);
  await assert.rejects(
    q.runExclusive('update', '*maintenance*', async () => {
      throw new CairnError('disk_full', 'full');
    }),
    (e: unknown) => e instanceof CairnError && e.code === 'disk_full',
  );
});
