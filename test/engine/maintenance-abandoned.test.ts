// What a write that never committed leaves in a table (a maintenance pass or a job cut off by a
// stop or a kill: its data and index files, named by no version) is deleted by the next pass of an
// engine that holds the data folder's lock. LanceDB alone keeps such files for 7 days, since they
// may belong to a write still running: at 100k chunks a stop during a pass left a 40 MB copy of the
// chunks table. The files are planted here by copying the table's own files under new names, which
// is what such a write leaves (a kill mid-compaction cannot be timed in a test).
// - A file written after the table's last commit (as a write in progress would be) is kept.
// - The control: an engine without the lock (another engine may be writing) sweeps nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../main/engine/engine.js';

interface Planted {
  oldData: string;
  oldIndex: string;
  freshData: string;
}

/** Copies of one data file and one index folder of the chunks table that no version names. */
async function plant(home: string): Promise<Planted> {
  const table = join(home, 'index', 'chunks.lance');
  const data = (await readdir(join(table, 'data'))).filter((n) => n.endsWith('.lance'));
  const indexes = await readdir(join(table, '_indices'));
  assert.ok(data.length > 0 && indexes.length > 0, 'precondition: the table has data and an index');
  const oldData = join(table, 'data', `${randomUUID().replace(/-/g, '')}.lance`);
  const freshData = join(table, 'data', `${randomUUID().replace(/-/g, '')}.lance`);
  const oldIndex = join(table, '_indices', randomUUID());
  await cp(join(table, 'data', data[0]!), oldData);
  await cp(join(table, 'data', data[0]!), freshData);
  await cp(join(table, '_indices', indexes[0]!), oldIndex, { recursive: true });
  // Written an hour ago, before every version the pass keeps (the process was stopped back then).
  const hourAgo = new Date(Date.now() - 3_600_000);
  await utimes(oldData, hourAgo, hourAgo);
  for (const f of await readdir(oldIndex)) await utimes(join(oldIndex, f), hourAgo, hourAgo);
  // Written after the last commit, as a write still running would be.
  const ahead = new Date(Date.now() + 3_600_000);
  await utimes(freshData, ahead, ahead);
  return { oldData, oldIndex, freshData };
}

async function indexedEngine(lock: boolean): Promise<{ engine: Engine; home: string; cleanup: () => Promise<void> }> {
  const folders = await tempDir('abandoned');
  const opened = await tempEngine({ 'watch.enabled': false }, { lock, maintenance: { keepVersionsMs: 0 } });
  const folder = join(folders.dir, 'notes');
  await mkdir(folder);
  for (let i = 0; i < 6; i++)
    await writeFile(join(folder, `n${i}.md`), `# Note ${i}\n\nOn harbours, tides and lighthouse number ${i}.\n`);
  await opened.engine.addFolder({ path: folder, text_only: true });
  await indexNow(opened.engine, folder, 'create');
  await opened.engine.runMaintenance();
  return {
    ...opened,
    cleanup: async () => {
      await opened.cleanup();
      await folders.cleanup();
    },
  };
}

async function answers(engine: Engine): Promise<number> {
  return (await engine.search({ query: 'lighthouse harbours', mode: 'sparse', top_k: 10 })).hits.length;
}

test('a pass deletes files no version names that predate what it keeps, and keeps newer ones', async () => {
  const { engine, home, cleanup } = await indexedEngine(true);
  try {
    const before = await answers(engine);
    assert.equal(before, 6, 'precondition: every note answers');
    const p = await plant(home);
    await engine.runMaintenance();
    assert.equal(existsSync(p.oldData), false, 'an abandoned data file is still there');
    assert.equal(
      existsSync(p.oldIndex) && (await readdir(p.oldIndex)).length > 0,
      false,
      'an abandoned index is still there',
    );
    assert.equal(existsSync(p.freshData), true, 'a file newer than the last commit (a write in progress) was deleted');
    assert.equal(await answers(engine), before, 'the index answers as before');
  } finally {
    await cleanup();
  }
});

test('the control: an engine without the lock sweeps nothing (another engine may be writing)', async () => {
  const { engine, home, cleanup } = await indexedEngine(false);
  try {
    const p = await plant(home);
    await engine.runMaintenance();
    assert.equal(existsSync(p.oldData), true, 'swept without the lock');
    assert.equal(existsSync(p.oldIndex) && (await readdir(p.oldIndex)).length > 0, true, 'swept without the lock');
    assert.equal(existsSync(p.freshData), true);
    assert.equal(await answers(engine), 6);
  } finally {
    await cleanup();
  }
});
