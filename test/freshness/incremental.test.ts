// Incremental facts on a real engine: what an update re-does (nothing, for unchanged files; no
// vectors, for a rename), what it prunes, and pause / resume / cancel of a running job.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../main/engine/engine.js';
import type { JobInfo } from '../../main/common/status.js';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import { eventually, FolderModel, sleep, snippetText, token } from './lib.js';

let engine: Engine;
let cleanupEngine: () => Promise<void>;
let small: { dir: string; cleanup: () => Promise<void> };
let big: { dir: string; cleanup: () => Promise<void> };
let model: FolderModel;
let bigModel: FolderModel;

before(async () => {
  const t = await tempEngine();
  engine = t.engine;
  cleanupEngine = t.cleanup;
  small = await tempDir('incr-small');
  big = await tempDir('incr-big');
  model = new FolderModel(small.dir);
  for (let i = 0; i < 12; i++) await model.add();
  bigModel = new FolderModel(big.dir, 1000);
  for (let i = 0; i < 250; i++) await bigModel.add();
  await engine.addFolder({ path: small.dir });
  await indexNow(engine, small.dir, 'create');
});

after(async () => {
  await cleanupEngine?.();
  await small?.cleanup();
  await big?.cleanup();
});

async function update(folder: string): Promise<JobInfo> {
  const job = await engine.indexFolder(folder, 'update');
  await engine.idle();
  const done = engine.job(job.id)!;
  assert.equal(done.state, 'done', JSON.stringify(done));
  return done;
}

async function found(tok: string): Promise<string[]> {
  return [...new Set((await engine.search({ query: tok, mode: 'sparse', top_k: 50 })).hits.map((h) => h.path))];
}

async function vectorRows(path: string): Promise<number> {
  const [name] = await engine.store.vectorTableNames();
  const table = await engine.store.vectors(name, 0, false);
  return table!.countRows(`path = '${path.replace(/'/g, "''")}'`);
}

describe('an incremental update', () => {
  test('re-parses nothing when nothing changed', async () => {
    const job = await update(small.dir);
    assert.equal(job.progress.files_total, 0, JSON.stringify(job.progress));
    assert.equal(job.progress.chunks_total, 0);
    assert.equal(job.errors, 0);
  });

  test('re-parses and re-embeds an edited file only', async () => {
    const rel = [...model.files.keys()][0];
    await model.edit(rel);
    const job = await update(small.dir);
    // The last phase was the embedding of the edited file's chunks, and nothing else.
    assert.equal(job.progress.files_total, 1, JSON.stringify(job.progress));
    assert.ok(job.progress.chunks_total > 0, JSON.stringify(job.progress));
    const f = model.files.get(rel)!;
    assert.deepEqual(await found(token(f.id, f.version)), [model.abs(rel)]);
    assert.deepEqual(await found(token(f.id, f.version - 1)), []);
  });

  test('a rename costs no embedding: vectors move with the text', async () => {
    const rel = [...model.files.keys()][1];
    const f = model.files.get(rel)!;
    const to = `renamed/${rel.split('/').pop()}`;
    const before = await vectorRows(model.abs(rel));
    assert.ok(before > 0);
    await model.rename(rel, to);
    const job = await update(small.dir);
    // An embedding pass would have set chunks_total to the chunks it embeds.
    assert.equal(job.progress.chunks_total, 0, `the rename was embedded again: ${JSON.stringify(job.progress)}`);
    assert.equal(await vectorRows(model.abs(to)), before);
    assert.equal(await vectorRows(model.abs(rel)), 0);
    assert.deepEqual(await found(token(f.id, f.version)), [model.abs(to)]);
    const [st] = await engine.folders();
    assert.equal(st.freshness.vector_coverage, 1);
  });

  test('prunes deleted and newly ignored files', async () => {
    const [gone, ignored] = [...model.files.keys()].slice(2, 4);
    const g = model.files.get(gone)!;
    const ig = model.files.get(ignored)!;
    await model.remove(gone);
    await writeFile(join(small.dir, '.gitignore'), `${ignored}\n`);
    const before = (await engine.folders())[0].files;
    await update(small.dir);
    assert.deepEqual(await found(token(g.id, g.version)), []);
    assert.deepEqual(await found(token(ig.id, ig.version)), []);
    assert.equal(await vectorRows(model.abs(gone)), 0);
    assert.equal(await vectorRows(model.abs(ignored)), 0);
    const [st] = await engine.folders();
    // .gitignore is itself a text file the walk indexes.
    assert.equal(st.files, before - 2 + 1);
    // Un-ignoring brings it back.
    await rm(join(small.dir, '.gitignore'));
    await update(small.dir);
    assert.deepEqual(await found(token(ig.id, ig.version)), [model.abs(ignored)]);
  });

  test('a touched file with the same content keeps its vectors', async () => {
    const rel = [...model.files.keys()][5];
    await writeFile(model.abs(rel), model.content(rel));
    const later = new Date(Date.now() + 5000);
    await utimes(model.abs(rel), later, later);
    const job = await update(small.dir);
    assert.equal(job.progress.chunks_total, 0, JSON.stringify(job.progress));
    const f = model.files.get(rel)!;
    assert.deepEqual(await found(token(f.id, f.version)), [model.abs(rel)]);
  });
});

describe('a running job', () => {
  test(
    'pauses (no progress while paused, search still answers), resumes and completes',
    { timeout: 300_000 },
    async () => {
      await engine.addFolder({ path: big.dir });
      const { id } = await engine.indexFolder(big.dir, 'create');
      engine.jobAction(id, 'pause');
      assert.equal(engine.job(id)!.state, 'paused');
      // The pause takes effect at the job's next checkpoint; from then on nothing moves.
      let last = '';
      await eventually(
        'the paused job to stand still',
        async () => {
          const now = JSON.stringify(engine.job(id)!.progress);
          const still = now === last;
          last = now;
          return still ? true : undefined;
        },
        120_000,
        1500,
      );
      const files = (await engine.folders()).find((f) => f.path === big.dir)!.files;
      await sleep(2000);
      const info = engine.job(id)!;
      assert.equal(info.state, 'paused');
      assert.equal(JSON.stringify(info.progress), last, 'a paused job made progress');
      assert.equal((await engine.folders()).find((f) => f.path === big.dir)!.files, files);
      const st = (await engine.folders()).find((f) => f.path === big.dir)!;
      assert.equal(st.state, 'indexing');
      assert.ok(st.progress, 'status shows the progress of the paused job');
      // Searching stays available while the job waits.
      const [smallRel, smallFile] = [...model.files][0];
      assert.deepEqual(await found(token(smallFile.id, smallFile.version)), [model.abs(smallRel)]);
      engine.jobAction(id, 'resume');
      await engine.idle();
      assert.equal(engine.job(id)!.state, 'done', JSON.stringify(engine.job(id)));
      for (const [rel, f] of [...bigModel.files].slice(0, 40))
        assert.deepEqual(await found(token(f.id, f.version)), [bigModel.abs(rel)]);
    },
  );

  test('cancel ends it cancelled and leaves a consistent index', { timeout: 300_000 }, async () => {
    for (const rel of [...bigModel.files.keys()].slice(0, 120)) await bigModel.edit(rel);
    const { id } = await engine.indexFolder(big.dir, 'update');
    // Let it get going, then cancel: it stops at its next checkpoint.
    await eventually(
      'the job to run',
      async () => (engine.job(id)!.progress.files_done > 0 ? true : undefined),
      120_000,
      20,
    );
    engine.jobAction(id, 'cancel');
    await engine.idle();
    assert.equal(engine.job(id)!.state, 'cancelled');
    assert.throws(() => engine.jobAction(id, 'resume'), /already/);
    const st = (await engine.folders()).find((f) => f.path === big.dir)!;
    assert.notEqual(st.state, 'indexing');
    assert.equal(st.reason, undefined);
    // Every file is findable by exactly one of its versions, and every snippet is text it had.
    for (const [rel, f] of bigModel.files) {
      const hits = (
        await engine.search({
          query: `${token(f.id, f.version)} ${token(f.id, f.version - 1)}`,
          mode: 'sparse',
          top_k: 10,
        })
      ).hits;
      const mine = hits.filter((h) => h.path === bigModel.abs(rel));
      assert.ok(mine.length > 0, `${rel} lost by the cancel`);
      const versions = new Set(mine.map((h) => snippetText(h.snippet).match(/qz\d+v\d+k/)?.[0]));
      assert.equal(versions.size, 1, `${rel}: ${[...versions].join(', ')}`);
    }
    // The next update finishes the work.
    await update(big.dir);
    for (const [rel, f] of [...bigModel.files].slice(0, 120))
      assert.deepEqual(await found(token(f.id, f.version)), [bigModel.abs(rel)], rel);
  });
});
