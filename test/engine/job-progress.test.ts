// The one progress model: a job that has not started says "queued" (also after a pause and a
// resume), a phase is measured in its own unit, and an ETA is words, never raw seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Job } from '../../main/engine/jobs/job.js';
import { JobQueue } from '../../main/engine/jobs/queue.js';
import { describeProgress, formatEta, progressText } from '../../main/common/progress.js';

test('a queued job paused and resumed is queued again, not "running / scanning 0/0"', async () => {
  const queue = new JobQueue();
  let release: (() => void) | undefined;
  const first = queue.submit('update', '/a', () => new Promise<void>((r) => (release = r)));
  const second = queue.submit('update', '/b', async () => undefined);
  assert.equal(first.state, 'running');
  assert.equal(second.state, 'queued');
  queue.action(second.id, 'pause');
  assert.equal(second.state, 'paused');
  queue.action(second.id, 'resume');
  assert.equal(second.state, 'queued');
  assert.equal(second.info().progress.summary?.label, 'queued');
  // The control: the running job resumed after a pause is running.
  queue.action(first.id, 'pause');
  queue.action(first.id, 'resume');
  assert.equal(first.state, 'running');
  while (!release) await new Promise((r) => setImmediate(r));
  release();
  await queue.idle();
  assert.equal(second.state, 'done');
});

test('embedding is counted in chunks, text in files; no ETA while a scan is still finding files', () => {
  const job = new Job('update', '/a');
  job.start();
  job.addFiles(10);
  job.advance(1, 0);
  assert.equal(job.info().progress.eta_seconds, null, 'scanning: the total is still growing');
  assert.equal(job.info().progress.summary?.fraction, null);
  job.phase('embedding', { files_total: 4, chunks_total: 400 });
  job.advance(1, 100);
  const s = job.info().progress.summary!;
  assert.equal(s.label, 'computing vectors');
  assert.equal(s.fraction, 0.25);
  assert.equal(s.counts, '100 of 400 chunks (1 of 4 files)');
});

test('while vectors are computed the progress names the file being embedded, and only then', () => {
  const job = new Job('update', '/a');
  job.start();
  job.phase('embedding', { files_total: 2, chunks_total: 20 });
  assert.equal(job.info().progress.summary?.file, undefined, 'no file yet');
  job.working('docs/CHANGELOG.md');
  job.advance(0, 5);
  const info = job.info();
  assert.equal(info.progress.current_file, 'docs/CHANGELOG.md');
  assert.equal(info.progress.summary?.file, 'embedding docs/CHANGELOG.md');
  assert.equal(
    progressText(info.state, info.progress),
    'computing vectors: 5 of 20 chunks (0 of 2 files), embedding docs/CHANGELOG.md',
  );
  job.pause();
  assert.equal(job.info().progress.summary?.file, undefined, 'a paused job is embedding nothing');
  job.resume();
  job.working(undefined);
  assert.equal(job.info().progress.current_file, undefined);
  job.working('notes.md');
  job.finish('done');
  assert.equal(job.info().progress.current_file, undefined, 'a finished job names no file');
  assert.equal(job.info().progress.summary?.file, undefined);
});

test('ETA as a phrase', () => {
  assert.equal(formatEta(null), null);
  assert.equal(formatEta(0), null);
  assert.equal(formatEta(42), 'less than a minute');
  assert.equal(formatEta(250), 'about 4 min');
  assert.equal(formatEta(4800), 'about 1 h 20 min');
  const line = progressText('running', {
    phase: 'embedding',
    files_done: 52,
    files_total: 425,
    chunks_done: 1584,
    chunks_total: 30818,
    throughput: 30,
    eta_seconds: 250,
  });
  assert.equal(line, 'computing vectors: 1,584 of 30,818 chunks (52 of 425 files), about 4 min left');
  assert.equal(
    describeProgress('paused', {
      phase: 'parsing',
      files_done: 1,
      files_total: 2,
      chunks_done: 0,
      chunks_total: 0,
      throughput: 0,
      eta_seconds: 9,
    }).eta,
    null,
    'no ETA while paused',
  );
});
