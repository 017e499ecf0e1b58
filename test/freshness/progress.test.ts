// Progress and state while a job runs: `indexing` with files/chunks done of total and an ETA,
// then `fresh` with counts and the time of the last update; hits carry their folder's freshness,
// and partial vector coverage during the embedding pass is reported, not an error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../main/engine/engine.js';
import type { FolderStatus, JobInfo } from '../../main/common/status.js';
import { tempDir, tempEngine } from '../helpers/engine.js';
import { eventually, FolderModel, token } from './lib.js';

let engine: Engine;
let cleanupEngine: () => Promise<void>;
let folder: { dir: string; cleanup: () => Promise<void> };
let model: FolderModel;
const FILES = 160;

before(async () => {
  const t = await tempEngine();
  engine = t.engine;
  cleanupEngine = t.cleanup;
  folder = await tempDir('progress');
  model = new FolderModel(folder.dir);
  for (let i = 0; i < FILES; i++) await model.add();
  await engine.addFolder({ path: folder.dir });
});

after(async () => {
  await cleanupEngine?.();
  await folder?.cleanup();
});

test('status follows a job from indexing to fresh', { timeout: 300_000 }, async () => {
  const [initial] = await engine.folders();
  assert.equal(initial.state, 'possibly_stale', 'a folder never indexed is not fresh');
  assert.equal(initial.updated_at, null);
  const started = Date.now();
  const { id } = await engine.indexFolder(folder.dir, 'create');
  const seen: { job: JobInfo; folder: FolderStatus }[] = [];

  // Watch until the vectors are being computed, then hold the job there.
  await eventually(
    'the embedding phase',
    async () => {
      const job = engine.job(id)!;
      const [f] = await engine.folders();
      seen.push({ job, folder: f });
      assert.ok(!job.finished_at, `the job ended before its embedding phase was seen: ${JSON.stringify(job)}`);
      return job.progress.phase === 'embedding' ? true : undefined;
    },
    240_000,
    20,
  );
  engine.jobAction(id, 'pause');

  for (const s of seen) {
    assert.equal(s.folder.state, 'indexing', JSON.stringify(s.folder));
    assert.ok(s.folder.progress, 'an indexing folder shows its progress');
    assert.deepEqual(s.folder.progress, s.job.progress);
    const p = s.job.progress;
    assert.ok(p.files_done <= p.files_total || p.files_total === 0, JSON.stringify(p));
  }
  const parsing = seen.find((s) => s.job.progress.phase === 'parsing' && s.job.progress.files_total > 0);
  assert.ok(parsing, `no snapshot in the parsing phase: ${seen.map((s) => s.job.progress.phase).join(',')}`);
  assert.equal(parsing.job.progress.files_total, FILES);

  // Held in the embedding phase: text is in, vectors partly.
  const [mid] = await engine.folders();
  assert.equal(mid.state, 'indexing');
  assert.equal(mid.files, FILES);
  assert.ok(mid.chunks >= FILES);
  assert.ok(mid.freshness.vector_coverage < 1, `coverage ${mid.freshness.vector_coverage}`);
  const p = mid.progress!;
  assert.equal(p.phase, 'embedding');
  assert.ok(p.chunks_total > 0 && p.chunks_done <= p.chunks_total, JSON.stringify(p));
  assert.ok(p.eta_seconds === null || p.eta_seconds >= 0, JSON.stringify(p));
  const [rel, f] = [...model.files][7];
  const sparse = await engine.search({ query: token(f.id, f.version), mode: 'sparse' });
  assert.deepEqual(
    sparse.hits.map((h) => h.path),
    [model.abs(rel)],
  );
  assert.equal(sparse.hits[0].freshness.state, 'indexing');
  assert.ok(sparse.hits[0].freshness.vector_coverage < 1);
  // Partial vectors are not an error: hybrid answers, and says how much the vector leg covers.
  const hybrid = await engine.search({ query: `note about gardening ${token(f.id, f.version)}`, mode: 'hybrid' });
  assert.ok(hybrid.hits.some((h) => h.path === model.abs(rel)));
  assert.ok(hybrid.folders[folder.dir].vector_coverage < 1);

  // Once it has run for a while, the embedding pass has a throughput and an ETA.
  engine.jobAction(id, 'resume');
  await eventually(
    'a throughput and an ETA',
    async () => {
      const job = engine.job(id)!;
      if (job.finished_at) return true;
      const q = job.progress;
      return q.phase === 'embedding' && q.chunks_done > 0 && q.throughput > 0
        ? (assert.equal(typeof q.eta_seconds, 'number'), true)
        : undefined;
    },
    240_000,
    20,
  );
  await engine.idle();

  const job = engine.job(id)!;
  assert.equal(job.state, 'done');
  assert.equal(job.progress.phase, 'done');
  assert.equal(job.progress.chunks_done, job.progress.chunks_total);
  assert.equal(job.progress.eta_seconds, 0);
  const [end] = await engine.folders();
  assert.equal(end.state, 'fresh');
  assert.equal(end.progress, undefined);
  assert.equal(end.files, FILES);
  assert.equal(end.embedded_chunks, end.chunks);
  assert.equal(end.freshness.vector_coverage, 1);
  assert.ok(end.updated_at && Date.parse(end.updated_at) >= started - 1000, end.updated_at ?? 'null');
  const after = await engine.search({ query: token(f.id, f.version), mode: 'hybrid' });
  assert.equal(after.hits[0].freshness.state, 'fresh');
  assert.equal(after.hits[0].freshness.vector_coverage, 1);
  const status = await engine.status();
  assert.equal(status.totals.files, FILES);
  assert.equal(status.totals.embedded_chunks, status.totals.chunks);
});
