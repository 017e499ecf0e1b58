// grep walks with the index's own walk by names (walkNames) and leaves the content checks to its
// reader (read-grep/file-reader.ts): together they must yield exactly the files walkFolder yields, in
// the same order, with their bytes: grep searches what the index covers, no more and no less.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderSpec } from '../../main/common/settings.js';
import { FileReader } from '../../main/engine/read-grep/file-reader.js';
import { accessFromSpec, accessOptions } from '../../main/engine/sources/access.js';
import { walkNames, type WalkOptions } from '../../main/engine/sources/index.js';
import { collect, writeTree } from '../sources/walk-helpers.js';
import { tempDir } from '../helpers/engine.js';

let root: string;
let folder: string;
let cleanup: () => Promise<void>;

before(async () => {
  const t = await tempDir('grep-walk');
  root = t.dir;
  cleanup = t.cleanup;
  folder = join(root, 'folder');
  await writeTree(root, { 'outside/secret.txt': 'outside secret\n' });
  await writeTree(folder, {
    '.gitignore': '*.log\nbuild-output/\n',
    '.ignore': '!keep.log\n',
    'keep.log': 'kept by .ignore\n',
    'a.log': 'ignored\n',
    'build-output/x.txt': 'ignored dir\n',
    'sub/.gitignore': 'local.txt\n!other.log\n',
    'sub/local.txt': 'ignored here\n',
    'sub/other.log': 're-included\n',
    'sub/fine.txt': 'fine\n',
    'other/local.txt': 'not ignored here\n',
    'node_modules/m/index.js': 'dependency\n',
    'package-lock.json': '{}\n',
    'app.min.js': 'minified\n',
    'image.png': 'not really a png\n',
    'nul.txt': Buffer.from('text\0with a NUL\n'),
    'late-nul.txt': Buffer.concat([Buffer.alloc(9000, 'a'), Buffer.from('\0')]),
    'doc.pdf': Buffer.from('%PDF-1.4\0 binary is fine for documents\n'),
    'big.txt': 'x'.repeat(16385),
    'edge.txt': 'x'.repeat(16384),
    'huge.txt': 'y'.repeat(200_000),
    'empty.txt': '',
    'Zeta.md': 'upper case sorts first\n',
    'alpha.md': 'alpha\n',
    'émigré.md': 'non-ASCII name\n',
    'deep/a/b/c/d.ts': 'deep\n',
    'docs/private/p.md': 'private\n',
    'docs/public.md': 'public\n',
  });
  await symlink(join(root, 'outside', 'secret.txt'), join(folder, 'leak.txt'));
  await symlink(join(root, 'outside'), join(folder, 'leakdir'));
  await symlink(join(folder, 'alpha.md'), join(folder, 'alias.md'));
  await symlink(join(folder, 'deep'), join(folder, 'deep-link'));
  await symlink(folder, join(folder, 'deep', 'loop'));
  await symlink(join(folder, 'missing.md'), join(folder, 'broken.md'));
  spawnSync('mkfifo', [join(folder, 'pipe.txt')]);
});

after(async () => {
  await cleanup();
});

/** What grep sees of a folder: the names walk, each file read (and checked) by grep's reader. Bytes copied: the reader reuses one buffer. */
async function walkAndRead(
  spec: FolderSpec,
  opts: WalkOptions,
  want: ((rel: string) => boolean) | null,
): Promise<{ path: string; rel: string; bytes: Buffer }[]> {
  const reader = new FileReader();
  const access = accessFromSpec({ spec, opts: accessOptions(opts), epoch: 0 });
  const out: { path: string; rel: string; bytes: Buffer }[] = [];
  for await (const batch of walkNames(spec, opts, want))
    for (const f of batch) {
      const bytes = reader.read(access, f.path);
      if (bytes) out.push({ path: f.path, rel: f.rel, bytes: Buffer.from(bytes) });
    }
  return out;
}

const base: WalkOptions = { maxFileBytes: 16384, respectGitignore: true, extraExcludes: [] };

async function compare(spec: FolderSpec, opts: WalkOptions): Promise<string[]> {
  const expected = (await collect(spec, opts)).flatMap((i) => ('file' in i ? [i.file] : []));
  const got = await walkAndRead(spec, opts, null);
  assert.deepEqual(
    got.map((f) => [f.path, f.rel]),
    expected.map((f) => [f.path, f.rel]),
  );
  for (const f of got) assert.ok(f.bytes.equals(await readFile(f.path)), `bytes of ${f.rel}`);
  return got.map((f) => f.rel);
}

test('grep walks the files the index walks, in its order, by every rule', async () => {
  const rels = await compare({ path: folder }, base);
  // The fixture exercises what it claims to: a few files each rule keeps or drops.
  for (const kept of [
    'keep.log',
    'sub/other.log',
    'other/local.txt',
    'doc.pdf',
    'late-nul.txt',
    'edge.txt',
    'empty.txt',
    'alias.md',
    'deep-link/a/b/c/d.ts',
    'émigré.md',
  ])
    assert.ok(rels.includes(kept), kept);
  for (const dropped of [
    'a.log',
    'sub/local.txt',
    'build-output/x.txt',
    'node_modules/m/index.js',
    'package-lock.json',
    'app.min.js',
    'image.png',
    'nul.txt',
    'big.txt',
    'huge.txt',
    'leak.txt',
    'broken.md',
    'pipe.txt',
  ])
    assert.ok(!rels.includes(dropped), dropped);
  assert.ok(!rels.some((r) => r.startsWith('leakdir/') || r.includes('/loop/')));
  assert.ok(rels.indexOf('Zeta.md') < rels.indexOf('alpha.md'));
});

test('grep walk agrees with ignore files off, globs, extra excludes and another size limit', async () => {
  await compare({ path: folder }, { ...base, respectGitignore: false });
  await compare({ path: folder, include: ['**/*.md', '*.txt'], exclude: ['docs/private/**'] }, base);
  await compare({ path: folder }, { ...base, extraExcludes: ['deep', '*.md'] });
  assert.ok((await compare({ path: folder }, { ...base, maxFileBytes: 1 << 20 })).includes('huge.txt'));
  await compare({ path: `${folder}/` }, base);
});

test('grep walk reads nothing of a missing folder or a file path, and honours its filter', async () => {
  assert.deepEqual(await walkAndRead({ path: join(root, 'nope') }, base, null), []);
  assert.deepEqual(await walkAndRead({ path: join(folder, 'alpha.md') }, base, null), []);
  const seen: string[] = [];
  const only = (await walkAndRead({ path: folder }, base, (rel) => (seen.push(rel), rel.endsWith('.md')))).map(
    (f) => f.rel,
  );
  assert.ok(only.length > 3 && only.every((r) => r.endsWith('.md')));
  assert.ok(seen.includes('edge.txt'));
});
