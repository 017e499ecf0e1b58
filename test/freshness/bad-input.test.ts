// Bad input: UTF-16 text with a byte order mark is decoded and indexed (not skipped as binary),
// while a file with NUL bytes and no mark stays out; a file that fails to parse is not parsed
// again until it changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';

function utf16(text: string, be: boolean): Buffer {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  if (!be) return le;
  const out = Buffer.alloc(le.length);
  for (let i = 0; i + 1 < le.length; i += 2) {
    out[i] = le[i + 1];
    out[i + 1] = le[i];
  }
  return out;
}

test(
  'UTF-16 files with a byte order mark are indexed; NUL-filled files without one are not',
  { timeout: 300_000 },
  async () => {
    const home = await tempDir('bad-home');
    const folder = await tempDir('bad-folder');
    const engine = await openEngine({ home: home.dir });
    try {
      engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
      await writeFile(
        join(folder.dir, 'le.txt'),
        utf16('Notes from PowerShell: utfsixteenlek and more words.\r\n', false),
      );
      await writeFile(join(folder.dir, 'be.md'), utf16('# Heading\n\nutfsixteenbek in a big-endian file.\n', true));
      await writeFile(
        join(folder.dir, 'nul.txt'),
        Buffer.concat([Buffer.from('nulbytefilek '), Buffer.alloc(64), Buffer.from(' tail')]),
      );
      await engine.addFolder({ path: folder.dir });
      await indexNow(engine, folder.dir, 'create');
      const find = async (q: string) =>
        (await engine.search({ query: q, mode: 'sparse', top_k: 5 })).hits.map((h) => h.path);
      assert.deepEqual(await find('utfsixteenlek'), [join(folder.dir, 'le.txt')]);
      assert.deepEqual(await find('utfsixteenbek'), [join(folder.dir, 'be.md')]);
      // Control: the binary sniff still keeps NUL-filled files out.
      assert.deepEqual(await find('nulbytefilek'), []);
    } finally {
      await engine.close();
      await home.cleanup();
      await folder.cleanup();
    }
  },
);
