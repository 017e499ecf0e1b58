// A pause or cancel during the embedding pass stops it after the batches already handed to the
// workers, not after the whole step (a step is up to 64 files: thousands of chunks, minutes of
// work for one large file). With 2 threads and batches of 8, at most 4 batches are in flight.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../main/engine/engine.js';
import type { JobInfo } from '../../main/common/status.js';
import { tempDir, tempEngine } from '../helpers/engine.js';
import { eventually, prng } from './lib.js';

const THREADS = 2;
const BATCH = 8;
const IN_FLIGHT = 2 * THREADS * BATCH;
const WORDS = [
  'river',
  'stone',
  'garden',
  'lantern',
  'harbour',
  'meadow',
  'copper',
  'signal',
  'orchard',
  'thunder',
  'quarry',
  'willow',
  'beacon',
  'ledger',
  'saddle',
  'glacier',
];

let engine: Engine;
let cleanup: () => Promise<void>;
const folders: { dir: string; cleanup: () => Promise<void> }[] = [];

before(async () => {
  const t = await tempEngine({ 'embedding.threads': THREADS, 'embedding.batch_size': BATCH });
  engine = t.engine;
  cleanup = t.cleanup;
});

after(async () => {
  await cleanup?.();
  for (const f of folders) await f.cleanup();
});

/** A folder of one large file (one step of the embedding pass), indexed until vectors are being computed. */
async function embedding(seed: number): Promise<{ job: JobInfo; dir: string }> {
  const folder = await tempDir('embed-pause');
  folders.push(folder);
  const rng = prng(seed);
  const paragraphs = Array.from(
    { length: 500 },
    (_, i) => `## Part ${i}\n\n${Array.from({ length: 90 }, () => rng.pick(WORDS)).join(' ')}.`,
  );
  await writeFile(join(folder.dir, 'big.md'), paragraphs.join('\n\n'));
  await engine.addFolder({ path: folder.dir });
  const { id } = await engine.indexFolder(folder.dir, 'create');
  return eventually(
    'vectors being computed',
    async () => {
      const job = engine.job(id)!;
      assert.ok(!job.finished_at, `the job ended before it was caught embedding: ${JSON.stringify(job)}`);
      return job.progress.phase === 'embedding' && job.progress.chunks_done > 0 ? { job, dir: folder.dir } : undefined;
    },
    240_000,
    10,
  );
}

/** Waits until the job's chunk count stops moving (the in-flight batches are done). */
async function settled(id: string): Promise<JobInfo> {
  let last = -1;
  return eventually(
    'the embedding pass to stand still',
    async () => {
      const job = engine.job(id)!;
      const done = job.progress.chunks_done;
      const still = done === last;
      last = done;
      return still || job.finished_at ? job : undefined;
    },
    60_000,
    1500,
  );
}

test(
  'a pause during the embedding pass holds after the batches in flight; resume completes it',
  { timeout: 300_000 },
  async () => {
    const { job: caught, dir } = await embedding(7);
    engine.jobAction(caught.id, 'pause');
    const held = await settled(caught.id);
    assert.equal(held.state, 'paused', JSON.stringify(held));
    assert.ok(held.progress.chunks_total > 10 * IN_FLIGHT, `too few chunks to tell: ${held.progress.chunks_total}`);
    assert.ok(
      held.progress.chunks_done <= caught.progress.chunks_done + IN_FLIGHT,
      `paused at ${caught.progress.chunks_done}, went on to ${held.progress.chunks_done}`,
    );
    assert.ok(held.progress.chunks_done < held.progress.chunks_total);

    engine.jobAction(caught.id, 'resume');
    await engine.idle();
    assert.equal(engine.job(caught.id)!.state, 'done');
    const f = (await engine.folders()).find((x) => x.path === dir)!;
    assert.equal(f.freshness.vector_coverage, 1);
  },
);

test('a cancel during the embedding pass ends the job after the batches in flight', { timeout: 300_000 }, async () => {
  const { job: caught, dir } = await embedding(8);
  engine.jobAction(caught.id, 'cancel');
  await engine.idle();
  const job = engine.job(caught.id)!;
  assert.equal(job.state, 'cancelled', JSON.stringify(job));
  assert.ok(
    job.progress.chunks_done <= caught.progress.chunks_done + IN_FLIGHT,
    `cancelled at ${caught.progress.chunks_done}, went on to ${job.progress.chunks_done}`,
  );
  const f = (await engine.folders()).find((x) => x.path === dir)!;
  assert.ok(f.freshness.vector_coverage < 1, `coverage ${f.freshness.vector_coverage}`);
});
