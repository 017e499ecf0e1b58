// A full disk while serving: the watcher's updates fail typed (disk_full), the paths those jobs
// took are handed back, and once the space is freed every edit made meanwhile (new files in new
// folders, edits of old ones, edits made after the failure) is indexed without one more edit.
// The data folder lives on a small tmpfs (mounting it needs root; without it the test says skipped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { eventually, FolderModel, sleep, token } from './lib.js';

const TMPFS = '24m';
const LEFT_BYTES = 96 * 1024;

async function found(engine: Engine, tok: string): Promise<string[]> {
  return [...new Set((await engine.search({ query: tok, mode: 'sparse', top_k: 50 })).hits.map((h) => h.path))];
}

test(
  'disk full under serve: every edit made while the disk was full is indexed once space is freed',
  { timeout: 600_000 },
  async (t) => {
    const mnt = await tempDir('diskfull-serve-mnt');
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS}`, 'tmpfs', mnt.dir], { encoding: 'utf8' });
    if (mount.status !== 0) {
      await mnt.cleanup();
      t.skip(`cannot mount a small tmpfs here (${(mount.stderr || mount.error?.message || 'mount failed').trim()})`);
      return;
    }
    const folder = await tempDir('diskfull-serve-folder');
    const model = new FolderModel(folder.dir);
    const home = join(mnt.dir, 'home');
    const filler = join(mnt.dir, 'filler');
    let engine: Engine | null = null;
    try {
      for (let i = 0; i < 12; i++) await model.add();
      engine = await openEngine({ home });
      engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2', 'watch.debounce_ms': 100 });
      await engine.addFolder({ path: folder.dir });
      await indexNow(engine, folder.dir, 'create');
      await engine.startLiveUpdates();
      const e = engine;
      await eventually('the start-up reconcile', async () =>
        (await e.folders())[0].state === 'fresh' ? true : undefined,
      );

      const fs = await statfs(mnt.dir);
      await writeFile(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - LEFT_BYTES)));
      // New files in new folders (a rescan) and edits of indexed ones (pending paths).
      for (let i = 0; i < 120; i++) {
        const rel = await model.add(`new${i % 6}/deeper`);
        await writeFile(
          model.abs(rel),
          `${model.content(rel)}\n${'filler words about gardening and weather '.repeat(200)}\n`,
        );
      }
      for (const rel of [...model.files.keys()].slice(0, 6)) await model.edit(rel);
      // Every job the writes caused has run (and failed) before anything else happens: nothing but
      // the handed-back intents can bring these edits in later.
      const quiet = async () => {
        for (let seen = -1; seen !== e.jobs().length;) {
          seen = e.jobs().length;
          await sleep(1500);
          await e.idle();
        }
      };
      await quiet();
      const failed = e.jobs().find((j) => j.state === 'failed' && j.error?.code === 'disk_full');
      assert.ok(failed, JSON.stringify(e.jobs().map((j) => [j.state, j.error?.code])));
      const [st] = await e.folders();
      assert.notEqual(st.state, 'fresh', JSON.stringify(st));
      // Edits after the failure, while the disk is still full.
      for (const rel of [...model.files.keys()].slice(6, 10)) await model.edit(rel);
      await quiet();

      // Settings written on the full disk: disk_full (not config_invalid), and the file is kept.
      const config = await readFile(join(home, 'config.json'));
      const more = join(mnt.dir, 'filler2');
      const left = await statfs(mnt.dir);
      await writeFile(more, Buffer.alloc(left.bavail * left.bsize)).catch(() => undefined);
      assert.throws(
        () => e.settings.set({ 'search.rrf_k': 61, 'index.extra_excludes': ['x'.repeat(300_000)] }),
        (err: { code?: string }) => err.code === 'disk_full',
      );
      assert.deepEqual(await readFile(join(home, 'config.json')), config);
      await rm(more);

      await rm(filler);
      for (const [rel, f] of model.files) {
        await eventually(
          `${rel} v${f.version} indexed`,
          async () => {
            const hits = await found(e, token(f.id, f.version));
            return hits.length === 1 && hits[0] === model.abs(rel) ? true : undefined;
          },
          240_000,
          250,
        );
      }
      const after = await eventually(
        'fresh again',
        async () => {
          const [s] = await e.folders();
          return s.state === 'fresh' ? s : undefined;
        },
        120_000,
      );
      assert.equal(after.files, model.files.size);
      assert.equal(after.freshness.pending_changes, 0);
    } finally {
      await engine?.close().catch(() => undefined);
      if (spawnSync('umount', [mnt.dir]).status !== 0) spawnSync('umount', ['-l', mnt.dir]);
      await mnt.cleanup().catch(() => undefined);
      await folder.cleanup();
    }
  },
);
