// The one write-then-rename the engine's small files share (lock, keys, markers, client configs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../../main/engine/kernel/atomic-write.js';
import { tempDir } from '../../../helpers/engine.js';

test('replaces a file whole, with exactly the mode asked for, and leaves no scratch file', async () => {
  const dir = await tempDir('atomic-write');
  try {
    const file = join(dir.dir, 'key');
    await writeFile(file, 'old old old', { mode: 0o644 });
    const umask = process.umask(0o000);
    try {
      await writeFileAtomic(file, 'new\n', { mode: 0o600 });
    } finally {
      process.umask(umask);
    }
    assert.equal(await readFile(file, 'utf8'), 'new\n');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(dir.dir), ['key']);
    // Control: without a mode the file keeps the default bits a plain write gives.
    await writeFileAtomic(file, 'plain');
    assert.equal(await readFile(file, 'utf8'), 'plain');
    assert.notEqual((await stat(file)).mode & 0o777, 0o600);
    // A failed rename (the target is a folder that holds a file) leaves no scratch file behind either.
    await mkdir(join(dir.dir, 'sub'));
    await writeFile(join(dir.dir, 'sub', 'f'), '');
    await assert.rejects(writeFileAtomic(join(dir.dir, 'sub'), 'x', { mode: 0o600 }));
    assert.deepEqual((await readdir(dir.dir)).sort(), ['key', 'sub']);
  } finally {
    await dir.cleanup();
  }
});
