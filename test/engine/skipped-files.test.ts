// Skipped files are recorded with their reason by the indexer (full scans and watcher updates),
// kept across a restart, and listed per folder page by page with the indexed files and errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir, indexNow } from '../helpers/engine.js';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { CairnError } from '../../main/engine/errors.js';
import type { FolderFilesResponse } from '../../main/common/files.js';
import type { FolderChanges } from '../../main/engine/watch/changes.js';

let root: string;
let home: string;
let folder: string;
let outside: string;
let engine: Engine;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const t = await tempDir('skips');
  cleanups.push(t.cleanup);
  root = t.dir;
  home = join(root, 'home');
  folder = join(root, 'folder');
  outside = join(root, 'outside');
  await mkdir(join(folder, 'node_modules', 'dep'), { recursive: true });
  await mkdir(join(folder, 'drafts'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(folder, 'notes.md'), '# Notes\n\nInvoices are rounded half up.\n');
  await writeFile(join(folder, 'code.ts'), 'export function roundTotal(x: number) {\n  return Math.round(x);\n}\n');
  await writeFile(join(folder, 'big.txt'), 'word '.repeat(1000));
  await writeFile(join(folder, 'photo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  await writeFile(join(folder, 'blob.dat'), Buffer.from('abc\0def\0'));
  await writeFile(join(folder, '.env'), 'TOKEN=123\n');
  await writeFile(join(folder, '.gitignore'), 'ignored.log\n');
  await writeFile(join(folder, 'ignored.log'), 'log line\n');
  await writeFile(join(folder, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  await writeFile(join(folder, 'drafts', 'draft.md'), 'draft\n');
  await writeFile(join(outside, 'secret.txt'), 'outside\n');
  await symlink(join(outside, 'secret.txt'), join(folder, 'link-out.txt'));
  engine = await openEngine({ home });
  engine.settings.set({ 'index.max_file_bytes': 2048 });
  await engine.addFolder({ path: folder, exclude: ['drafts/**'] });
  await indexNow(engine, folder, 'create');
});

after(async () => {
  await engine?.close();
  for (const c of cleanups.reverse()) await c();
});

/** What the watcher does on a change: the path is handed to the folder's changes, applied after the debounce. */
async function applyWatcherChange(path: string): Promise<void> {
  const changes = (engine as unknown as { changes: FolderChanges }).changes;
  changes.add(folder, [path]);
  while (changes.pendingCount(folder) > 0) await new Promise((r) => setTimeout(r, 50));
  await engine.idle();
}

const files = (req: Partial<Parameters<Engine['folderFiles']>[0]> = {}): Promise<FolderFilesResponse> =>
  engine.folderFiles({ path: folder, ...req });

test('status counts every skip by reason; a control: indexed files are not among them', async () => {
  const [st] = await engine.folders();
  assert.ok(st.skipped, 'a scan recorded its skips');
  assert.deepEqual(st.skipped.by_reason, {
    too_large: 1,
    binary: 2,
    secret: 1,
    ignored: 1,
    excluded: 1,
    default_exclude: 1,
    symlink_outside: 1,
  });
  assert.equal(st.skipped.total, 8);
  assert.equal(st.files, 3, 'notes.md, code.ts and .gitignore are indexed');
  const skipped = await files({ show: 'skipped' });
  const rels = skipped.items.map((e) => e.rel);
  assert.deepEqual(rels, [
    '.env',
    'big.txt',
    'blob.dat',
    'drafts/',
    'ignored.log',
    'link-out.txt',
    'node_modules/',
    'photo.png',
  ]);
  assert.ok(!rels.includes('notes.md'));
  const big = skipped.items.find((e) => e.rel === 'big.txt')!;
  assert.equal(big.reason, 'too_large');
  assert.equal(big.reason_text, 'larger than index.max_file_bytes');
  assert.match(big.detail ?? '', /5000 bytes > 2048/);
  assert.equal(big.path, join(folder, 'big.txt'));
});

test('the listing pages add up to the total, sorted by path; show and q filter it', async () => {
  const all = await files({ limit: 500 });
  assert.equal(all.total, 11);
  assert.deepEqual(all.counts, { indexed: 3, embedding: all.counts.embedding, errors: 0, skipped: 8 });
  const paged: string[] = [];
  for (let offset = 0; offset < all.total; offset += 3)
    paged.push(...(await files({ limit: 3, offset })).items.map((e) => e.rel));
  assert.deepEqual(
    paged,
    all.items.map((e) => e.rel),
  );
  assert.deepEqual(
    [...paged].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    paged,
  );
  const indexed = await files({ show: 'indexed' });
  assert.deepEqual(
    indexed.items.map((e) => e.rel),
    ['.gitignore', 'code.ts', 'notes.md'],
  );
  assert.ok(indexed.items.every((e) => (e.chunks ?? 0) > 0 || e.rel === '.gitignore'));
  assert.deepEqual(
    (await files({ q: 'NOTE' })).items.map((e) => e.rel),
    ['notes.md'],
  );
});

test('bad listing arguments are typed errors naming the argument', async () => {
  const refused = async (req: Record<string, unknown>, key: string, code = 'invalid_argument') =>
    assert.rejects(
      engine.folderFiles({ path: folder, ...req } as never),
      (err: unknown) =>
        err instanceof CairnError && err.code === code && (code !== 'invalid_argument' || err.details?.key === key),
      JSON.stringify(req),
    );
  await refused({ limit: 0 }, 'limit');
  await refused({ limit: 501 }, 'limit');
  await refused({ offset: -1 }, 'offset');
  await refused({ limit: 'abc' }, 'limit');
  await refused({ show: 'bogus' }, 'show');
  await refused({ path: join(root, 'nope') }, 'path', 'not_found');
  // Control: the same call with good arguments answers.
  assert.equal((await files({ limit: '2' as never })).items.length, 2);
});

test('a watcher update records a file that grew past the limit, and clears it when it shrinks', async () => {
  const path = join(folder, 'notes.md');
  await writeFile(path, 'grown '.repeat(1000));
  await applyWatcherChange(path);
  let skipped = (await files({ show: 'skipped' })).items.map((e) => `${e.rel}:${e.reason}`);
  assert.ok(skipped.includes('notes.md:too_large'), skipped.join(', '));
  assert.ok(!(await files({ show: 'indexed' })).items.some((e) => e.rel === 'notes.md'), 'its old text left the index');
  await writeFile(path, '# Notes\n\nsmall again\n');
  await applyWatcherChange(path);
  skipped = (await files({ show: 'skipped' })).items.map((e) => e.rel);
  assert.ok(!skipped.includes('notes.md'));
  assert.ok((await files({ show: 'indexed' })).items.some((e) => e.rel === 'notes.md'));
});

test('the record survives a restart (status from another process says the same)', async () => {
  const before = (await engine.folders())[0].skipped;
  await engine.close();
  engine = await openEngine({ home });
  const afterRestart = (await engine.folders())[0].skipped;
  assert.deepEqual(afterRestart?.by_reason, before?.by_reason);
  assert.equal((await files({ show: 'skipped' })).total, 8);
});

test('removing the folder forgets its skips; adding it again starts with none recorded', async () => {
  await engine.removeFolder(folder);
  await engine.addFolder({ path: folder, exclude: ['drafts/**'] });
  assert.equal((await engine.folders())[0].skipped, null);
  await indexNow(engine, folder, 'update');
  assert.equal((await engine.folders())[0].skipped?.total, 8);
});
