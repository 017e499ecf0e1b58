// A big folder with bounded memory: a sync streams the walk, keeps only changed files, in batches
// (compared with a compact digest of the stored rows read once as a stream, ingested, then dropped)
// and prunes from a stream of stored paths, so what it holds is one batch of files whatever the
// folder's size. The job exposes the most files a scan held at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { SCAN_BATCH } from '../../main/engine/ingest/indexer.js';
import { tempDir } from '../helpers/engine.js';

/** Six scan batches: enough that holding the whole folder would show, small enough for CI. */
const FILES = 6 * SCAN_BATCH;
const DIRS = 100;

const relOf = (i: number) => `d${i % DIRS}/n${i}.txt`;
const tokenOf = (i: number, v = 0) => `hq${i}v${v}k`;

async function run(engine: Engine, folder: string, kind: 'create' | 'update') {
  const { id } = await engine.indexFolder(folder, kind);
  await engine.idle();
  const job = engine.jobsQueue.get(id)!;
  assert.equal(job.state, 'done', JSON.stringify(job.info()));
  return job;
}

async function found(engine: Engine, tok: string): Promise<string[]> {
  return (await engine.search({ query: tok, mode: 'sparse', top_k: 5 })).hits.map((h) => h.path);
}

test(
  `a folder of ${FILES} files is scanned in batches of at most ${SCAN_BATCH}, pruned and updated correctly`,
  { timeout: 1_200_000 },
  async () => {
    const home = await tempDir('huge-home');
    const folder = await tempDir('huge-folder');
    for (let d = 0; d < DIRS; d++) await mkdir(join(folder.dir, `d${d}`));
    for (let i = 0; i < FILES; i++) await writeFile(join(folder.dir, relOf(i)), `note ${tokenOf(i)}\n`);
    const engine = await openEngine({ home: home.dir });
    try {
      // Text only (this hub id is not available offline): the scan is what is measured here.
      engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
      await engine.addFolder({ path: folder.dir });

      const first = await run(engine, folder.dir, 'create');
      assert.equal(first.info().errors, 0);
      assert.equal(first.scanPeak, SCAN_BATCH, 'the scan did not hold exactly one batch at its peak');
      let [st] = await engine.folders();
      assert.equal(st.files, FILES);
      assert.equal(st.state, 'fresh');

      // Delete every 7th file, edit every 11th, add a few: one streamed update settles all of it.
      const deleted = new Set<number>();
      for (let i = 0; i < FILES; i += 7) {
        await rm(join(folder.dir, relOf(i)));
        deleted.add(i);
      }
      const edited = new Set<number>();
      for (let i = 3; i < FILES; i += 11) {
        if (deleted.has(i)) continue;
        // A different size, so the edit is seen by size and mtime alike.
        await writeFile(join(folder.dir, relOf(i)), `note ${tokenOf(i, 1)} edited\n`);
        edited.add(i);
      }
      for (let i = FILES; i < FILES + 50; i++) await writeFile(join(folder.dir, relOf(i)), `note ${tokenOf(i)}\n`);

      const second = await run(engine, folder.dir, 'update');
      assert.ok(second.scanPeak <= SCAN_BATCH, `a scan held ${second.scanPeak} files`);
      // Only what changed was parsed again: the edits and the new files.
      assert.equal(second.info().progress.files_total, edited.size + 50, JSON.stringify(second.info().progress));
      [st] = await engine.folders();
      assert.equal(st.files, FILES - deleted.size + 50);
      assert.equal(st.file_errors, 0);

      for (const i of [0, 7, 700, FILES - 1 - ((FILES - 1) % 7)])
        assert.deepEqual(await found(engine, tokenOf(i)), [], `deleted ${i} still found`);
      for (const i of [3, 14 + 3 * 11, [...edited].at(-1)!]) {
        assert.deepEqual(await found(engine, tokenOf(i, 1)), [join(folder.dir, relOf(i))]);
        assert.deepEqual(await found(engine, tokenOf(i)), [], `old version of ${i} still found`);
      }
      for (const i of [1, 2, FILES - 1, FILES, FILES + 49])
        if (!deleted.has(i) && !edited.has(i))
          assert.deepEqual(await found(engine, tokenOf(i)), [join(folder.dir, relOf(i))], `${i} missing`);
    } finally {
      await engine.close();
      await home.cleanup();
      await folder.cleanup();
    }
  },
);
