// Rewrites that keep a file's size and mtime (`touch -r`, `cp -p`, an archive of another version
// extracted over the folder) must be seen by a reconcile, and once applied only the new version may
// answer: no old chunk or document row survives beside it. Chunk ids never collide, also for equal
// pieces of one long line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';

const note = (tok: string) => `# Log\n\nentry ${tok} by the river\n`;

async function where(engine: Engine, tok: string): Promise<string[]> {
  return [...new Set((await engine.search({ query: tok, mode: 'sparse', top_k: 20 })).hits.map((h) => h.path))];
}

async function docTexts(engine: Engine, path: string): Promise<string[]> {
  return (await engine.store.storedRows('docs', [path])).map((r) => r.text);
}

test(
  'same size, same mtime rewrites are found by a reconcile, and the old version stops answering',
  { timeout: 300_000 },
  async () => {
    const home = await tempDir('rw-home');
    const folder = await tempDir('rw-folder');
    const engine = await openEngine({ home: home.dir });
    try {
      engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
      const a = join(folder.dir, 'a.md');
      const b = join(folder.dir, 'b.md');
      const other = join(folder.dir, 'other.md');
      await writeFile(a, note('rwalphaoldk'));
      await writeFile(b, note('rwbravooldk'));
      await writeFile(other, note('rwbravonewk'));
      await engine.addFolder({ path: folder.dir });
      await indexNow(engine, folder.dir, 'create');
      assert.deepEqual(await where(engine, 'rwalphaoldk'), [a]);

      // touch -r: new text of the same length, then the old times put back.
      const before = await stat(a);
      const ref = join(home.dir, 'times-ref');
      await writeFile(ref, '');
      assert.equal(spawnSync('touch', ['-r', a, ref]).status, 0);
      await writeFile(a, note('rwalphanewk'));
      assert.equal(spawnSync('touch', ['-r', ref, a]).status, 0);
      const after = await stat(a);
      assert.equal(after.size, before.size);
      assert.equal(after.mtimeMs, before.mtimeMs);
      // cp -p: another file's bytes (same size) with that file's times, under b's name.
      const cp = spawnSync('cp', ['-p', other, b]);
      assert.equal(cp.status, 0, String(cp.stderr));

      await indexNow(engine, folder.dir, 'update');
      assert.deepEqual(await where(engine, 'rwalphanewk'), [a], 'the touch -r rewrite was not indexed');
      assert.deepEqual(await where(engine, 'rwalphaoldk'), [], 'the old version still answers');
      assert.deepEqual(
        (await where(engine, 'rwbravonewk')).sort(),
        [b, other].sort(),
        'the cp -p rewrite was not indexed',
      );
      assert.deepEqual(await where(engine, 'rwbravooldk'), []);
      const docs = await docTexts(engine, a);
      assert.equal(docs.length, 1, `document rows of a.md: ${JSON.stringify(docs)}`);
      assert.match(docs[0], /rwalphanewk/);

      // Control: an untouched index is not re-read (nothing changes, nothing is parsed again).
      const indexedAt = async () => (await engine.store.storedRows('files', [a])).map((r) => r.indexed_at);
      const files = await indexedAt();
      assert.equal(files.length, 1);
      await indexNow(engine, folder.dir, 'update');
      const again = await indexedAt();
      assert.deepEqual(again, files);
    } finally {
      await engine.close();
      await home.cleanup();
      await folder.cleanup();
    }
  },
);

test('chunk ids are unique for equal pieces of one long line', { timeout: 300_000 }, async () => {
  const home = await tempDir('cid-home');
  const folder = await tempDir('cid-folder');
  const engine = await openEngine({ home: home.dir });
  try {
    engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
    const path = join(folder.dir, 'long.txt');
    // One line, the same words over and over: the chunker cuts it into equal windows.
    await writeFile(
      path,
      `${'repeat the same words again '.repeat(4000)}\n${'another line\n'.repeat(50)}${'repeat the same words again\n'.repeat(400)}`,
    );
    await engine.addFolder({ path: folder.dir });
    await indexNow(engine, folder.dir, 'create');
    const rows = await engine.store.storedRows('chunks', [path]);
    const sameText = rows.filter((r) => r.start_line === 1);
    assert.ok(sameText.length > 3, `the long line made ${sameText.length} chunks`);
    assert.ok(new Set(sameText.map((r) => r.text)).size < sameText.length, 'no equal pieces: the test shows nothing');
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'chunk ids collide');
  } finally {
    await engine.close();
    await home.cleanup();
    await folder.cleanup();
  }
});
