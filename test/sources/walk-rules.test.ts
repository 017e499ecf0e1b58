import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { collect, rels, skipped, writeTree } from './walk-helpers.js';

async function tree(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-walk-'));
  await writeTree(dir, files);
  return dir;
}

test('nested .gitignore files are scoped to their folder and can re-include', async () => {
  const dir = await tree({
    '.gitignore': '*.log\nbuild-output/\n',
    'a.log': 'x',
    'keep.txt': 'x',
    'build-output/x.txt': 'x',
    'sub/.gitignore': '!keep.log\nlocal.txt\n',
    'sub/keep.log': 'x',
    'sub/other.log': 'x',
    'sub/local.txt': 'x',
    'sub/fine.txt': 'x',
    'other/local.txt': 'x',
  });
  try {
    assert.deepEqual(rels(await collect({ path: dir })), [
      '.gitignore',
      'keep.txt',
      'other/local.txt',
      'sub/.gitignore',
      'sub/fine.txt',
      'sub/keep.log',
    ]);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('.ignore files apply like .gitignore and win over it in the same folder', async () => {
  const dir = await tree({
    '.gitignore': 'secret.md\n',
    '.ignore': 'drafts/\n!secret.md\n',
    'secret.md': 'x',
    'drafts/a.md': 'x',
    'b.md': 'x',
  });
  try {
    assert.deepEqual(rels(await collect({ path: dir })), ['.gitignore', '.ignore', 'b.md', 'secret.md']);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('respectGitignore false indexes ignored files (built-in excludes still apply)', async () => {
  const dir = await tree({ '.gitignore': '*.log\n', 'a.log': 'x', 'node_modules/m/index.js': 'x' });
  try {
    assert.deepEqual(rels(await collect({ path: dir }, { respectGitignore: false })), ['.gitignore', 'a.log']);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('include and exclude globs are relative to the folder and match dotfiles', async () => {
  const dir = await tree({
    'docs/a.md': 'x',
    'docs/private/b.md': 'x',
    'src/c.ts': 'x',
    '.env.md': 'x',
    'notes/d.md': 'x',
    'e.txt': 'x',
  });
  try {
    assert.deepEqual(rels(await collect({ path: dir, include: ['*.md'], exclude: ['docs/private/**'] })), [
      '.env.md',
      'docs/a.md',
      'notes/d.md',
    ]);
    assert.deepEqual(rels(await collect({ path: dir, include: ['docs/**'] })), ['docs/a.md', 'docs/private/b.md']);
    assert.deepEqual(rels(await collect({ path: dir, exclude: ['docs', 'src/*.ts'] })), [
      '.env.md',
      'e.txt',
      'notes/d.md',
    ]);
    assert.deepEqual(rels(await collect({ path: dir }, { extraExcludes: ['*.md'] })), ['e.txt', 'src/c.ts']);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('built-in excludes: VCS folders, dependencies, build outputs, lock files, minified files', async () => {
  const files: Record<string, string> = { 'main.py': 'x' };
  for (const d of [
    '.git',
    '.hg',
    '.svn',
    'node_modules',
    'dist',
    'build',
    'out',
    'target',
    '.next',
    '__pycache__',
    '.venv',
  ])
    files[`${d}/f.txt`] = 'x';
  for (const f of [
    'package-lock.json',
    'yarn.lock',
    'pnpm-lock.yaml',
    'Cargo.lock',
    'poetry.lock',
    'lib/app.min.js',
    'lib/style.min.css',
  ])
    files[f] = 'x';
  files['sub/node_modules/x.js'] = 'x';
  const dir = await tree(files);
  try {
    assert.deepEqual(rels(await collect({ path: dir })), ['main.py']);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('binary files are skipped by extension and by a NUL in the first 8 KiB; PDF/DOCX are not sniffed', async () => {
  const late = Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.from([0])]);
  const dir = await tree({
    'img.png': 'not really a png',
    'data.txt': Buffer.from([0x61, 0, 0x62]),
    'late-nul.txt': late,
    'doc.pdf': Buffer.from('%PDF-1.4\n\u0000'),
    'ok.txt': 'x',
  });
  try {
    const items = await collect({ path: dir });
    assert.deepEqual(rels(items), ['doc.pdf', 'late-nul.txt', 'ok.txt']);
    assert.deepEqual(
      skipped(items)
        .map((s) => s.reason)
        .sort(),
      ['binary', 'binary'],
    );
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('files over maxFileBytes are skipped and reported', async () => {
  const dir = await tree({ 'big.txt': 'x'.repeat(2000), 'small.txt': 'x'.repeat(1000) });
  try {
    const items = await collect({ path: dir }, { maxFileBytes: 1000 });
    assert.deepEqual(rels(items), ['small.txt']);
    assert.match(skipped(items)[0].reason, /too large \(2000 bytes > 1000\)/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('symlinks: out of the folder skipped, inside followed, loops cut', async () => {
  const base = await mkdtemp(join(tmpdir(), 'cairn-walk-links-'));
  const dir = join(base, 'folder');
  try {
    await writeTree(base, { 'secret/s.txt': 'secret', 'folder/real/a.txt': 'a', 'folder/z.txt': 'z' });
    await symlink(join(base, 'secret'), join(dir, 'out-dir'));
    await symlink(join(base, 'secret/s.txt'), join(dir, 'out-file.txt'));
    await symlink(join(dir, 'real'), join(dir, 'alias'));
    await symlink(join(dir, 'z.txt'), join(dir, 'link-z.txt'));
    await symlink(dir, join(dir, 'real/loop'));
    await symlink(join(dir, 'missing'), join(dir, 'dangling'));
    const items = await collect({ path: dir });
    assert.deepEqual(rels(items), ['alias/a.txt', 'link-z.txt', 'real/a.txt', 'z.txt']);
    const reasons = skipped(items)
      .map((s) => `${s.path.slice(dir.length + 1)}: ${s.reason}`)
      .sort();
    assert.deepEqual(reasons, [
      'alias/loop: symlink loop',
      'dangling: broken symlink',
      'out-dir: symlink outside the folder',
      'out-file.txt: symlink outside the folder',
      'real/loop: symlink loop',
    ]);
  } finally {
    await rm(base, { recursive: true });
  }
});

test('a folder reached through a symlink is walked, and the secret beside it is not', async () => {
  const base = await mkdtemp(join(tmpdir(), 'cairn-walk-root-'));
  try {
    await writeTree(base, { 'real/a.txt': 'a' });
    await mkdir(join(base, 'links'));
    await symlink(join(base, 'real'), join(base, 'links/folder'));
    const items = await collect({ path: join(base, 'links/folder') });
    assert.deepEqual(rels(items), ['a.txt']);
  } finally {
    await rm(base, { recursive: true });
  }
});

test('a missing folder is one error, not a throw', async () => {
  const items = await collect({ path: join(tmpdir(), 'cairn-does-not-exist-' + process.pid) });
  assert.equal(items.length, 1);
  assert.ok('error' in items[0]);
  assert.equal(items[0].error.code, 'not_found');
});

test('only regular files: a FIFO (or a link to one) is skipped without ever being opened', async () => {
  const dir = await tree({ 'a.txt': 'x' });
  try {
    const r = spawnSync('mkfifo', [join(dir, 'pipe')]);
    assert.equal(r.status, 0, 'mkfifo is needed for this test');
    await symlink(join(dir, 'pipe'), join(dir, 'pipe-link'));
    const items = await collect({ path: dir });
    assert.deepEqual(rels(items), ['a.txt']);
    assert.deepEqual(
      skipped(items).map((s) => [s.path.slice(dir.length + 1), s.reason]),
      [
        ['pipe', 'not a regular file'],
        ['pipe-link', 'not a regular file'],
      ],
    );
  } finally {
    await rm(dir, { recursive: true });
  }
});
