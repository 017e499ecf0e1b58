import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError } from '../../main/engine/errors.js';
import { FolderFilter, inspectPath } from '../../main/engine/sources/index.js';
import { FolderAccess } from '../../main/engine/sources/access.js';
import { collect, rels, writeTree } from './walk-helpers.js';

test('FolderFilter agrees with the walk on every path of a tree', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-filter-'));
  try {
    const files = {
      '.gitignore': '*.log\n',
      'a.log': 'x',
      'a.md': 'x',
      'sub/.ignore': 'tmp/\n',
      'sub/tmp/x.md': 'x',
      'sub/y.md': 'x',
      'node_modules/p/i.js': 'x',
      'yarn.lock': 'x',
      'pic.jpg': 'x',
      'docs/private/z.md': 'x',
      'src/k.ts': 'x',
    };
    await writeTree(dir, files);
    const spec = { path: dir, exclude: ['docs/private/**'] };
    const filter = new FolderFilter(spec, { respectGitignore: true, extraExcludes: [] });
    const walked = new Set(rels(await collect(spec)));
    for (const rel of Object.keys(files)) assert.equal(filter.accepts(rel, false), walked.has(rel), rel);
    assert.equal(filter.accepts('node_modules', true), false);
    assert.equal(filter.accepts('sub/tmp', true), false);
    assert.equal(filter.accepts('sub', true), true);
    assert.equal(filter.reject('a.log', false), 'ignored');
    assert.equal(filter.reject('pic.jpg', false), 'binary');
    assert.equal(filter.reject('docs/private/z.md', false), 'excluded');
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('FolderFilter sees a changed .gitignore after invalidate()', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-filter-inv-'));
  try {
    await writeTree(dir, { '.gitignore': '', 'a.txt': 'x' });
    const filter = new FolderFilter({ path: dir }, { respectGitignore: true, extraExcludes: [] });
    assert.equal(filter.accepts('a.txt', false), true);
    await writeFile(join(dir, '.gitignore'), 'a.txt\n');
    filter.invalidate('');
    assert.equal(filter.accepts('a.txt', false), false);
    assert.equal(filter.accepts('./a.txt', false), false);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('the file door returns the bytes, or a typed error naming the file, through either read', async () => {
  const base = await mkdtemp(join(tmpdir(), 'cairn-read-'));
  const dir = join(base, 'folder');
  try {
    await writeTree(base, { 'outside.txt': 'secret', 'folder/a.txt': 'hello', 'folder/big.txt': 'x'.repeat(2000) });
    await mkdir(join(dir, 'sub'));
    await symlink(join(base, 'outside.txt'), join(dir, 'leak.txt'));
    await symlink(join(dir, 'a.txt'), join(dir, 'inside-link.txt'));
    const door = new FolderAccess({ path: dir }, { maxFileBytes: 1000, respectGitignore: true, extraExcludes: [] });
    // The parse workers read synchronously: both reads must keep every guarantee of the door.
    const reads = {
      threadPool: async (p: string) => (await door.readFile(p)).bytes,
      synchronous: async (p: string) => door.readFileSync(p).bytes,
    };
    for (const [name, read] of Object.entries(reads)) {
      assert.equal((await read(join(dir, 'a.txt'))).toString(), 'hello', name);
      assert.equal((await read(join(dir, 'inside-link.txt'))).toString(), 'hello', name);
      const refused = async (p: string, code: string, text: RegExp) =>
        assert.rejects(
          read(p),
          (err: unknown) =>
            err instanceof CairnError && err.code === code && text.test(err.message) && err.message.includes(p),
          `${name}: ${p}`,
        );
      await refused(join(dir, 'missing.txt'), 'not_found', /missing\.txt/);
      await refused(join(dir, 'sub'), 'invalid_argument', /not a regular file/);
      await refused(join(dir, 'leak.txt'), 'path_outside_folders', /out of the folder/);
      await refused(join(dir, 'big.txt'), 'invalid_argument', /too large/);
    }
  } finally {
    await rm(base, { recursive: true });
  }
});

test('inspectPath judges one path exactly as the walk does', async () => {
  const base = await mkdtemp(join(tmpdir(), 'cairn-inspect-'));
  const dir = join(base, 'folder');
  try {
    await writeTree(base, {
      'outside.txt': 'secret',
      'folder/.gitignore': '*.log\n',
      'folder/a.md': 'x',
      'folder/b.log': 'x',
      'folder/nul.txt': Buffer.from([0x61, 0]),
      'folder/big.txt': 'x'.repeat(5000),
      'folder/pic.png': 'x',
      'folder/node_modules/m.js': 'x',
      'folder/sub/c.ts': 'x',
    });
    await symlink(join(base, 'outside.txt'), join(dir, 'leak.txt'));
    const spec = { path: dir };
    const opts = { maxFileBytes: 1000, respectGitignore: true, extraExcludes: [] };
    const walked = await collect(spec, opts);
    const expectOf = (rel: string) =>
      walked.find((i) =>
        'file' in i ? i.file.rel === rel : 'skipped' in i ? i.skipped.path === join(dir, rel) : false,
      ) ?? null;
    for (const rel of ['a.md', 'b.log', 'nul.txt', 'big.txt', 'pic.png', 'node_modules/m.js', 'sub/c.ts', 'leak.txt']) {
      assert.deepEqual(await inspectPath(spec, rel, opts), expectOf(rel), rel);
    }
    const missing = await inspectPath(spec, 'gone.md', opts);
    assert.ok(missing && 'error' in missing && missing.error.code === 'not_found');
  } finally {
    await rm(base, { recursive: true });
  }
});
