// Issue 12, cause 13 (file side): the desktop shell's revealFile checked containment by string
// prefix without normalising, so `<folder>/../../etc/shadow` passed. It now goes through the
// engine's file door (revealablePath), which normalises and resolves links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { revealablePath } from '../../main/engine/sources/access.js';
import { tempDir } from '../helpers/engine.js';

test('revealFile paths: normalised, inside an indexed folder, links resolved; others refused', async () => {
  const t = await tempDir('reveal');
  try {
    const folder = join(t.dir, 'data');
    await mkdir(join(folder, 'docs'), { recursive: true });
    await mkdir(`${folder}-evil`);
    await writeFile(join(folder, 'docs', 'a.md'), 'x');
    await writeFile(join(t.dir, 'outside.txt'), 'x');
    await symlink(join(t.dir, 'outside.txt'), join(folder, 'out-link.txt'));
    const folders = [folder];
    // The old prefix check let every one of these through.
    for (const bad of [
      `${folder}/../outside.txt`,
      `${folder}/docs/../../outside.txt`,
      `${folder}-evil/x`,
      `${folder}/./docs/a.md`,
      join(folder, 'out-link.txt'),
      `${folder}/a\0b`,
      'docs/a.md',
    ]) {
      assert.equal(await revealablePath(folders, bad), null, bad);
    }
    // Control: a file inside is revealed at its real path.
    assert.equal(
      await revealablePath(folders, join(folder, 'docs', 'a.md')),
      await realpath(join(folder, 'docs', 'a.md')),
    );
  } finally {
    await t.cleanup();
  }
});
