// The door as grep's workers use it (FolderAccess.openSync): files are opened by name inside a
// directory held open and checked once (sources/access.ts, step 3). Every way out that the
// per-file check refuses must still be refused, and a released directory must be checked again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, readFileSync } from 'node:fs';
import { rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FolderAccess } from '../../main/engine/sources/access.js';
import { CairnError } from '../../main/engine/errors.js';
import { writeTree } from '../sources/walk-helpers.js';
import { tempDir } from '../helpers/engine.js';

let root: string;
let folder: string;
let cleanup: () => Promise<void>;

before(async () => {
  const t = await tempDir('grep-door');
  root = t.dir;
  cleanup = t.cleanup;
  folder = join(root, 'folder');
  await writeTree(root, { 'outside/x.txt': 'OUTSIDE\n', 'outside/secret.txt': 'OUTSIDE\n' });
  await writeTree(folder, { 'a/x.txt': 'inside a\n', 'a/y.txt': 'inside a too\n', '.ssh/notes.txt': 'key notes\n' });
  await symlink(join(root, 'outside/secret.txt'), join(folder, 'a/out.txt'));
  await symlink(join(root, 'outside'), join(folder, 'linkout'));
  await symlink(join(folder, 'a'), join(folder, 'linkin'));
  await symlink(join(folder, '.ssh'), join(folder, 'keys'));
});

after(async () => cleanup());

const door = () =>
  new FolderAccess({ path: folder }, { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] });

/** The file's text and folder-relative real path, or the refusal's code. */
function open(access: FolderAccess, rel: string): { text: string; realRel: string } | string {
  try {
    const o = access.openSync(join(folder, rel), true);
    try {
      return { text: readFileSync(o.fd, 'utf8'), realRel: o.realRel };
    } finally {
      closeSync(o.fd);
    }
  } catch (err) {
    assert.ok(err instanceof CairnError, String(err));
    return err.code;
  }
}

test('files opened in a held directory: in-folder links served under their real path, every way out refused', () => {
  const access = door();
  try {
    assert.deepEqual(open(access, 'a/x.txt'), { text: 'inside a\n', realRel: 'a/x.txt' });
    // Same directory, now held: a final symlink out is still refused, and a plain file still served.
    assert.equal(open(access, 'a/out.txt'), 'path_outside_folders');
    assert.deepEqual(open(access, 'a/y.txt'), { text: 'inside a too\n', realRel: 'a/y.txt' });
    assert.equal(open(access, 'linkout/x.txt'), 'path_outside_folders');
    assert.deepEqual(open(access, 'linkin/x.txt'), { text: 'inside a\n', realRel: 'a/x.txt' });
    // The rules judge the real path too: a link into a secret folder serves nothing.
    assert.equal(open(access, 'keys/notes.txt'), 'path_outside_folders');
    assert.equal(open(access, 'a/missing.txt'), 'not_found');
  } finally {
    access.release();
  }
});

test('a held directory swapped for a link out: never served from outside, and checked again once released', async () => {
  const access = door();
  try {
    assert.deepEqual(open(access, 'a/x.txt'), { text: 'inside a\n', realRel: 'a/x.txt' });
    await rename(join(folder, 'a'), join(folder, 'a-moved'));
    await symlink(join(root, 'outside'), join(folder, 'a'));
    // Still held: the same directory, inside the folder, whatever its name now.
    const held = open(access, 'a/x.txt');
    assert.equal(typeof held === 'string' ? held : held.text, 'inside a\n');
    access.release();
    assert.equal(open(access, 'a/x.txt'), 'path_outside_folders');
  } finally {
    access.release();
    await rename(join(folder, 'a'), join(root, 'old-link'));
    await rename(join(folder, 'a-moved'), join(folder, 'a'));
  }
});
