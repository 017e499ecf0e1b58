// A bulk ingest folds its rows into the full-text indexes once, not after every batch. Rows left
// unfolded are scored by LanceDB's flat scan (which mis-scores a term seen twice in a chunk). An
// engine that answers sparse searches from LanceDB (the CLI's) folds at the job's end, so every
// row is in the index when the job ends. A serving engine answers them from its in-memory mirror,
// which holds every committed row: its job ends without the fold, the chunk is found at once, and
// the maintenance pass that follows the job folds the rows (IndexStore.fold).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import { SCAN_BATCH } from '../../main/engine/ingest/indexer.js';

async function unindexed(home: string): Promise<number[]> {
  const db = await lancedb.connect(join(home, 'index'));
  const out: number[] = [];
  for (const [table, index] of [
    ['chunks', 'search_text_idx'],
    ['docs', 'text_idx'],
  ]) {
    const stats = await (await db.openTable(table)).indexStats(index);
    out.push(stats?.numUnindexedRows ?? -1);
  }
  db.close();
  return out;
}

test(
  'a bulk ingest leaves every row searchable at its end, folded by the job or by the pass after it',
  { timeout: 300_000 },
  async () => {
    const folder = await tempDir('bulk-fold');
    // Past the first commit's few thousand chunks, so that the file lands in a later batch.
    for (let i = 0; i < 300; i++) {
      const body = Array.from(
        { length: 120 },
        (_, p) => `Paragraph ${p} of note ${i} talks about the weather, gardens and ${i % 7} walks.`,
      ).join('\n\n');
      await writeFile(join(folder.dir, `note-${String(i).padStart(3, '0')}.md`), `# Note ${i}\n\n${body}\n`);
    }
    await writeFile(join(folder.dir, 'zz-last.md'), '# Tide tables\n\nThe quorvex quorvex tables list the tides.\n');
    for (const mirror of [false, true]) {
      // No vectors needed (as in the freshness tests): a hub model that is not on this computer
      // leaves them out, and the test quick.
      const t = await tempEngine(
        { 'watch.enabled': false, 'embedding.model': 'Xenova/all-MiniLM-L6-v2' },
        { searchMirror: mirror },
      );
      try {
        await t.engine.addFolder({ path: folder.dir });
        await indexNow(t.engine, folder.dir, 'create');
        // Read at once (background maintenance would fold the rows too, two seconds after the job).
        const atEnd = await unindexed(t.home);
        const [f] = await t.engine.folders();
        assert.ok(f.chunks > 3000, `only ${f.chunks} chunks: the file may sit in the first batch`);
        const memory = t.engine.store.reads.memory;
        await memory.settled();
        const served = memory.served;
        const res = await t.engine.search({ query: 'quorvex', mode: 'sparse' });
        assert.deepEqual(
          res.hits.map((h) => h.path),
          [join(folder.dir, 'zz-last.md')],
          `mirror ${mirror}`,
        );
        if (!mirror) {
          assert.deepEqual(atEnd, [0, 0], 'the job folded every row');
          continue;
        }
        assert.ok(memory.served > served, 'answered from memory');
        // The control of the pass below: the job did leave rows to fold.
        assert.ok(atEnd[0] > 0, `the job folded: ${JSON.stringify(atEnd)}`);
        await t.engine.runMaintenance();
        assert.deepEqual(await unindexed(t.home), [0, 0], 'the pass after the job folded every row');
      } finally {
        await t.cleanup();
      }
    }
    await folder.cleanup();
  },
);

test(
  'a sync that walks several scan batches folds once, at its end, and its counts are whole',
  { timeout: 300_000 },
  async () => {
    const folder = await tempDir('bulk-fold-batches');
    const t = await tempEngine({ 'watch.enabled': false, 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
    try {
      // Two scan batches, each big enough to be written unfolded (a small one folds as it is written).
      const files = SCAN_BATCH + 300;
      for (let i = 0; i < files; i++)
        await writeFile(
          join(folder.dir, `n-${String(i).padStart(5, '0')}.md`),
          `# Note ${i}\n\nTide ${i} of the harbour.\n`,
        );
      let folds = 0;
      const fold = t.engine.store.fold.bind(t.engine.store);
      t.engine.store.fold = async () => {
        folds++;
        await fold();
      };
      await t.engine.addFolder({ path: folder.dir });
      await indexNow(t.engine, folder.dir, 'create');
      // Each fold rewrites index segments the size of the table: one per batch grew with the square.
      assert.equal(folds, 1);
      // Counts were left to the run's end (recounted at most every few seconds meanwhile).
      const [f] = await t.engine.folders();
      assert.equal(f.files, files);
      assert.equal(f.chunks, files);
      const res = await t.engine.search({ query: `tide ${files - 1}`, mode: 'sparse' });
      assert.equal(res.hits[0]?.path, join(folder.dir, `n-${String(files - 1).padStart(5, '0')}.md`));
    } finally {
      await t.cleanup();
      await folder.cleanup();
    }
  },
);
