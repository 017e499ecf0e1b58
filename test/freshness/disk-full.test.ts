// A full disk under the index: the data folder lives on a small tmpfs (a real filesystem that
// really runs out of space; mounting it needs root, and without that the test says it is skipped).
// A filler file takes the space, an update fails typed, what was committed keeps serving, the
// settings survive, and once the filler is deleted the same update completes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { FolderModel, token } from './lib.js';

/** The tmpfs is sized so the first index fits easily and a few hundred more files do not. */
const TMPFS = '24m';
/** Space left beside the filler: enough to open the index, not to write the new files. */
const LEFT_BYTES = 96 * 1024;

async function found(engine: Engine, tok: string): Promise<string[]> {
  return [...new Set((await engine.search({ query: tok, mode: 'sparse', top_k: 50 })).hits.map((h) => h.path))];
}

test(
  'a full disk is disk_full: committed files keep serving, settings survive, and the job completes once space is freed',
  { timeout: 600_000 },
  async (t) => {
    const mnt = await tempDir('diskfull-mnt');
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS}`, 'tmpfs', mnt.dir], { encoding: 'utf8' });
    if (mount.status !== 0) {
      await mnt.cleanup();
      t.skip(
        `cannot mount a small tmpfs here (${(mount.stderr || mount.error?.message || 'mount failed').trim()}), so no full disk can be made`,
      );
      return;
    }
    const folder = await tempDir('diskfull-folder');
    const model = new FolderModel(folder.dir);
    const home = join(mnt.dir, 'home');
    const filler = join(mnt.dir, 'filler');
    let engine: Engine | null = null;
    try {
      for (let i = 0; i < 12; i++) await model.add();
      engine = await openEngine({ home });
      // Text only: no model files on the small disk (this hub id is not available offline).
      engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
      await engine.addFolder({ path: folder.dir });
      await indexNow(engine, folder.dir, 'create');
      const first = new Map(model.files);
      const config = await readFile(join(home, 'config.json'));

      const fs = await statfs(mnt.dir);
      await writeFile(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - LEFT_BYTES)));
      // Long files: their chunks and documents need far more than the space left.
      for (let i = 0; i < 300; i++) {
        const rel = await model.add('more');
        await writeFile(
          model.abs(rel),
          `${model.content(rel)}\n${'filler words about gardening and weather '.repeat(200)}\n`,
        );
      }

      const { id } = await engine.indexFolder(folder.dir, 'update');
      await engine.idle();
      const failed = engine.job(id)!;
      assert.equal(failed.state, 'failed', JSON.stringify(failed));
      assert.equal(failed.error?.code, 'disk_full', JSON.stringify(failed.error));
      assert.match(failed.error?.message ?? '', /disk holding the index is full/);
      assert.match(failed.error?.remedy ?? '', /free space/i);
      const [st] = await engine.folders();
      assert.equal(st.state, 'error', JSON.stringify(st));
      assert.match(st.reason ?? '', /disk holding the index is full/);

      // What was committed before the disk filled still answers, exactly as before.
      for (const [rel, f] of first)
        assert.deepEqual(await found(engine, token(f.id, f.version)), [model.abs(rel)], rel);
      assert.deepEqual(await readFile(join(home, 'config.json')), config, 'the settings changed');

      await rm(filler);
      await indexNow(engine, folder.dir, 'update');
      for (const [rel, f] of model.files)
        assert.deepEqual(await found(engine, token(f.id, f.version)), [model.abs(rel)], rel);
      const [after] = await engine.folders();
      assert.equal(after.state, 'fresh', JSON.stringify(after));
      assert.equal(after.reason, undefined);
      assert.equal(after.files, model.files.size);
      assert.equal(after.file_errors, 0);
    } finally {
      // Cleanup must not hide the test's own failure: a busy mount is detached lazily.
      await engine?.close().catch(() => undefined);
      if (spawnSync('umount', [mnt.dir]).status !== 0) spawnSync('umount', ['-l', mnt.dir]);
      await mnt.cleanup().catch(() => undefined);
      await folder.cleanup();
    }
  },
);
