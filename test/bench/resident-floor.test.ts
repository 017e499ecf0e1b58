// The memory benchmarks' floor counts the indexes a kept fixture uses, not the older versions'
// index files that stay in _indices until an engine's maintenance prunes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { pruneOldVersions, residentParts } from '../../bench/lib/resident-floor.js';

test('the floor counts the live index only once old versions are pruned', async () => {
  const home = mkdtempSync(join(tmpdir(), 'floor-'));
  try {
    const dir = join(home, 'index');
    const db = await lancedb.connect(dir);
    const rows = (from: number) =>
      Array.from({ length: 200 }, (_, i) => ({ id: `r${from + i}`, text: `word${(from + i) % 17} other text` }));
    const table = await db.createTable('t', rows(0));
    await table.createIndex('text', { config: lancedb.Index.fts() });
    const indices = join(dir, 't.lance', '_indices');
    const [first] = readdirSync(indices);
    // Replacing the index leaves the old one's files until a cleanup.
    await table.add(rows(200));
    await table.createIndex('text', { config: lancedb.Index.fts(), replace: true });
    table.close();
    db.close();
    assert.equal(readdirSync(indices).length, 2, 'control: the replaced index is still on disk');
    const before = residentParts(home).indexMb;
    await pruneOldVersions(home);
    assert.deepEqual(
      readdirSync(indices).filter((u) => u === first),
      [],
      'the replaced index is gone',
    );
    const after = residentParts(home).indexMb;
    assert.ok(after > 0 && after < before, `index files ${before.toFixed(3)} -> ${after.toFixed(3)} MB`);
    const again = await lancedb.connect(dir);
    const t = await again.openTable('t');
    assert.equal((await t.search('word3', 'fts').limit(100).toArray()).length, 24, 'the table still answers');
    t.close();
    again.close();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
