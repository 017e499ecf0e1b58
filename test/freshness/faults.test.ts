// Faults: a corrupt index, a folder that vanishes while the engine serves it, files that cannot
// be read. Each must end in a typed error or a per-file error, never a crash or lost settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { CairnError } from '../../main/engine/errors.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { cairn, eventually, FolderModel, token } from './lib.js';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

async function indexedHome(files: number) {
  const home = await tempDir('faults-home');
  const folder = await tempDir('faults-folder');
  const model = new FolderModel(folder.dir);
  for (let i = 0; i < files; i++) await model.add();
  const engine = await openEngine({ home: home.dir });
  await engine.addFolder({ path: folder.dir });
  await indexNow(engine, folder.dir, 'create');
  await engine.close();
  return { home, folder, model, cleanup: async () => (await home.cleanup(), await folder.cleanup()) };
}

for (const how of ['truncated', 'overwritten'] as const) {
  test(`a corrupt index (${how} files) is index_corrupt at open, keeps the settings, and repair rebuilds it`, { timeout: 300_000 }, async () => {
    const { home, folder, model, cleanup } = await indexedHome(6);
    try {
      const config = await readFile(join(home.dir, 'config.json'));
      for (const f of await filesUnder(join(home.dir, 'index', 'chunks.lance'))) {
        if (how === 'truncated') await writeFile(f, '');
        else await writeFile(f, Buffer.alloc((await stat(f)).size, 0x5a));
      }
      await assert.rejects(openEngine({ home: home.dir }), (err: unknown) => {
        assert.ok(err instanceof CairnError, String(err));
        assert.equal(err.code, 'index_corrupt', err.message);
        assert.match(err.remedy ?? '', /rebuild/i);
        return true;
      });
      assert.ok(!existsSync(join(home.dir, 'engine.lock')), 'a failed open keeps the lock');
      assert.deepEqual(await readFile(join(home.dir, 'config.json')), config, 'the settings changed');
      // The CLI says so with its documented exit code.
      const cli = cairn(['status'], home.dir);
      assert.equal((await cli.exit).code, 3, cli.stderr());
      assert.match(cli.stderr(), /cannot be opened[\s\S]*rebuild/i);

      const engine = await openEngine({ home: home.dir, repair: true });
      try {
        assert.ok((await readdir(home.dir)).some((n) => n.startsWith('index.corrupt-')), 'the damaged index is kept aside');
        assert.deepEqual(engine.folderSpecs().map((f) => f.path), [folder.dir]);
        await indexNow(engine, folder.dir, 'rebuild');
        for (const [rel, f] of model.files) {
          const res = await engine.search({ query: token(f.id, f.version), mode: 'sparse' });
          assert.deepEqual(res.hits.map((h) => h.path), [model.abs(rel)]);
        }
      } finally {
        await engine.close();
      }
      assert.deepEqual(await readFile(join(home.dir, 'config.json')), config);
    } finally {
      await cleanup();
    }
  });
}

test('a folder that disappears while serving turns error with a reason, and comes back', { timeout: 300_000 }, async () => {
  const { home, folder, model, cleanup } = await indexedHome(4);
  const engine = await openEngine({ home: home.dir, folderRetryMs: 250 });
  const away = `${folder.dir}-unplugged`;
  try {
    await engine.startLiveUpdates();
    await engine.search({ query: 'x', mode: 'sparse', freshness: 'wait_for_fresh' });
    await engine.idle();
    assert.equal((await engine.folders())[0].state, 'fresh');
    await rename(folder.dir, away);
    const st = await eventually('the folder in error', async () => {
      const [f] = await engine.folders();
      return f.state === 'error' ? f : undefined;
    }, 60_000, 100);
    assert.ok(st.reason && st.reason.length > 0, JSON.stringify(st));
    // What was indexed still answers, marked with the folder's state.
    const [rel, f] = [...model.files][0];
    const res = await engine.search({ query: token(f.id, f.version), mode: 'sparse' });
    assert.deepEqual(res.hits.map((h) => h.path), [model.abs(rel)]);
    assert.equal(res.hits[0].freshness.state, 'error');

    // Changed while away; seen once it is back.
    await writeFile(join(away, rel), 'back again with qzbackagaink\n');
    await rename(away, folder.dir);
    await eventually('the folder back and fresh with the change', async () => {
      const hits = (await engine.search({ query: 'qzbackagaink', mode: 'sparse', freshness: 'wait_for_fresh' })).hits;
      const [now] = await engine.folders();
      return hits.length === 1 && now.state === 'fresh' ? true : undefined;
    }, 120_000, 250);
    assert.equal((await engine.folders())[0].reason, undefined);
  } finally {
    await engine.close();
    if (existsSync(away)) await rename(away, folder.dir);
    await cleanup();
  }
});

test('a file that cannot be read is a per-file error, in a full sync and from the watcher', { timeout: 300_000 }, async () => {
  const { home, folder, model, cleanup } = await indexedHome(3);
  // A symlink loop: present in the folder, impossible to open, whoever runs the engine (even root).
  await symlink('loop-a.md', join(folder.dir, 'loop-b.md'));
  await symlink('loop-b.md', join(folder.dir, 'loop-a.md'));
  const engine = await openEngine({ home: home.dir });
  try {
    await indexNow(engine, folder.dir, 'update');
    let [st] = await engine.folders();
    assert.equal(st.files, 3);
    assert.deepEqual(st.errors.map((e) => e.path.slice(folder.dir.length + 1)).sort(), ['loop-a.md', 'loop-b.md'], JSON.stringify(st.errors));
    assert.equal(st.file_errors, 2);
    assert.equal(st.state, 'fresh');

    await engine.startLiveUpdates();
    await symlink('loop-d.md', join(folder.dir, 'loop-c.md'));
    await symlink('loop-c.md', join(folder.dir, 'loop-d.md'));
    await model.add();
    await engine.search({ query: 'x', mode: 'sparse', freshness: 'wait_for_fresh' });
    st = await eventually('the watcher to record the new unreadable files', async () => {
      const [now] = await engine.folders();
      return now.file_errors === 4 && now.files === 4 ? now : undefined;
    }, 60_000, 200);
    assert.equal(st.state, 'fresh');
    for (const [rel, f] of model.files) assert.deepEqual((await engine.search({ query: token(f.id, f.version), mode: 'sparse' })).hits.map((h) => h.path), [model.abs(rel)]);
  } finally {
    await engine.close();
    await cleanup();
  }
});
