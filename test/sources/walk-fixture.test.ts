import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFixtureFolder, type FixtureInfo } from '../helpers/fixtures.js';
import { collect, rels, skipped } from './walk-helpers.js';

let root: string;
let info: FixtureInfo;

test.before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-walk-fx-'));
  info = await makeFixtureFolder(root);
});
test.after(() => rm(root, { recursive: true, force: true }));

test('the fixture walk yields exactly the files that belong to the index', async () => {
  const items = await collect({ path: info.folder }, { maxFileBytes: info.maxFileBytes });
  const found = rels(items);
  assert.deepEqual([...found].sort(), info.indexed);
  for (const ex of info.excluded) assert.ok(!found.includes(ex.rel), `${ex.rel} (${ex.reason}) must not be indexed`);
});

test('content-based skips are reported with their reason', async () => {
  const items = await collect({ path: info.folder }, { maxFileBytes: info.maxFileBytes });
  const byRel = new Map(skipped(items).map((s) => [s.path.slice(info.folder.length + 1), s.reason]));
  assert.match(byRel.get('secret-link.txt') ?? '', /symlink outside/);
  assert.match(byRel.get('assets/logo.png') ?? '', /binary/);
  assert.match(byRel.get('data/dump.txt') ?? '', /binary/);
  assert.match(byRel.get('logs/huge.log') ?? '', /too large/);
  assert.match(byRel.get('web/app.min.js') ?? '', /minified/);
  // Rule-based exclusions (ignored, node_modules) are expected and not reported one by one.
  assert.equal(byRel.has('notes.tmp'), false);
});

test('the walk never yields a path outside the folder', async () => {
  const items = await collect({ path: info.folder }, { maxFileBytes: info.maxFileBytes });
  for (const i of items) if ('file' in i) assert.ok(i.file.path.startsWith(info.folder + '/'), i.file.path);
  assert.ok(!rels(items).includes('secret-link.txt'));
});

test('two walks give the same order, depth-first by name', async () => {
  const a = rels(await collect({ path: info.folder }, { maxFileBytes: info.maxFileBytes }));
  const b = rels(await collect({ path: info.folder }, { maxFileBytes: info.maxFileBytes }));
  assert.deepEqual(a, b);
  assert.ok(a.indexOf('README.md') < a.indexOf('c/checksum.c'));
  assert.ok(a.indexOf('c/checksum.c') < a.indexOf('cpp/matrix.cpp'));
});

test('files carry size and mtime', async () => {
  const items = await collect({ path: info.folder }, { maxFileBytes: info.maxFileBytes });
  const readme = items.find((i) => 'file' in i && i.file.rel === 'README.md');
  assert.ok(readme && 'file' in readme);
  assert.ok(readme.file.size > 100);
  assert.ok(readme.file.mtimeMs > 0);
});

test('an aborted walk stops with the abort reason', async () => {
  const ac = new AbortController();
  ac.abort(new Error('stop now'));
  await assert.rejects(collect({ path: info.folder }, { signal: ac.signal }), /stop now/);
});
