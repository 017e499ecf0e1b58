// The skip record's own rules: every walk reason maps to a typed code, rule skips are yielded only
// when asked (the indexer asks; grep and other walkers do not), and past the per-folder cap the
// counts stay exact while the list says it is not complete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_LISTED, ScanSkips, SkipLog, skipReasonOf } from '../../main/engine/ingest/skip-log.js';
import { SKIP_REASONS } from '../../main/common/files.js';
import { collect, writeTree } from '../sources/walk-helpers.js';

test('every reason the walk gives has its own code (no fallback used)', () => {
  const walkReasons = [
    'binary',
    'minified',
    'secret',
    'ignored',
    'excluded',
    'not included',
    'default exclude',
    'data folder',
    'symlink outside the folder',
    'symlink to a path the rules leave out',
    'symlink loop',
    'broken symlink',
    'not a regular file',
  ];
  const codes = walkReasons.map((r) => skipReasonOf(r));
  assert.ok(
    codes.every((c) => c.detail === undefined),
    'none fell through to the fallback',
  );
  assert.deepEqual(
    new Set([...codes.map((c) => c.reason), skipReasonOf('too large (5 bytes > 2)').reason]),
    new Set(Object.keys(SKIP_REASONS)),
  );
  assert.deepEqual(skipReasonOf('too large (5000 bytes > 2048)'), { reason: 'too_large', detail: '5000 bytes > 2048' });
  // Control: an unknown reason is kept as detail, not lost.
  assert.deepEqual(skipReasonOf('something new'), { reason: 'not_regular', detail: 'something new' });
});

test('rule skips are yielded only with reportRuleSkips; a skipped directory is one entry', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-skiprules-'));
  try {
    await writeTree(dir, {
      '.gitignore': 'out.log\n',
      'out.log': 'x\n',
      'a.md': '# a\n',
      'node_modules/p/i.js': '1\n',
      'node_modules/p/j.js': '2\n',
    });
    const quiet = (await collect({ path: dir })).filter((i) => 'skipped' in i);
    assert.deepEqual(quiet, [], 'other walkers see no rule skips');
    const loud = (await collect({ path: dir }, { reportRuleSkips: true })).flatMap((i) =>
      'skipped' in i ? [[i.skipped.path.slice(dir.length + 1), i.skipped.reason, i.skipped.dir === true]] : [],
    );
    assert.deepEqual(loud, [
      ['node_modules', 'default exclude', true],
      ['out.log', 'ignored', false],
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('past MAX_LISTED the counts stay exact and the list says it is incomplete; it persists', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-skiplog-'));
  try {
    const scan = new ScanSkips();
    for (let i = 0; i < MAX_LISTED + 5; i++) scan.add(`img/${i}.png`, 'binary');
    scan.add('big.txt', 'too large (9 bytes > 1)');
    const log = new SkipLog(dir);
    await log.commitScan('/f', scan);
    assert.deepEqual(log.summary('/f')?.by_reason, { too_large: 1, binary: MAX_LISTED + 5 });
    assert.equal(log.summary('/f')?.total, MAX_LISTED + 6);
    assert.equal(log.list('/f').entries.length, MAX_LISTED);
    assert.equal(log.list('/f').complete, false);
    const again = new SkipLog(dir);
    assert.deepEqual(again.summary('/f')?.by_reason, log.summary('/f')?.by_reason, 'read back from disk');
    // Control: a small scan is complete.
    const small = new ScanSkips();
    small.add('a.bin', 'binary');
    await log.commitScan('/g', small);
    assert.equal(log.list('/g').complete, true);
    assert.equal(new SkipLog(dir).summary('/never'), null, 'a folder never scanned has no record');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
