// What maintenance passes leave behind on a vectors table, on a real index (the full-text side is
// test/freshness/descriptors.test.ts):
// - Open files. Every pass under edits replaces the vector index (a new segment or a rebuild) and
//   the store reopens its tables. LanceDB before 0.37 kept the vector index files of every session
//   that had read them open for good, closed and collected or not: a serving engine held 28 more
//   deleted files a minute in the soak benchmark and its memory doubled in ten minutes. LanceDB
//   0.33 fails the first test at the first rebuild (round 2). 0.37 closes an index file once read,
//   so the control holds one itself across a rebuild: the probe must see it.
// - Empty folders. LanceDB's cleanup deletes a pruned index's files, not its folder; the pass
//   removes those (index/maintenance.ts). The control runs the same passes without that step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { closeSync, openSync, readdirSync } from 'node:fs';
import * as lancedb from '@lancedb/lancedb';
import { join } from 'node:path';
import { IndexStore, vectorRowFor } from '../../main/engine/index/store.js';
import { VectorReads } from '../../main/engine/index/search-reads.js';
import { maintain } from '../../main/engine/index/maintenance.js';
import { openIndexFiles } from '../../bench/lib/descriptors.js';
import { tempDir } from '../helpers/engine.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const DIM = 8;
const NAME = `vectors__fds_${DIM}`;
const OPTS = { vectorIndexThreshold: 100, keepVersionsMs: 0, retireAfterMs: 0 };
let seq = 0;

function vector(i: number): number[] {
  return Array.from({ length: DIM }, (_, d) => Math.sin(i * (d + 1) + 0.5));
}

function rows(n: number) {
  return Array.from({ length: n }, () => {
    const i = seq++;
    const chunk = {
      ...{ id: `c${i}`, folder: '/f', path: `/f/${i}.txt`, rel: `${i}.txt`, ext: 'txt', kind: 'text' },
      ...{ mtime: 0, text_hash: 'h', text: `t${i}`, heading: '', symbol: '' },
    };
    return vectorRowFor(chunk, vector(i));
  });
}

async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 30));
  }
}

function vectorIndexFiles(dir: string): { all: string[]; deleted: string[] } {
  const open = openIndexFiles(dir);
  const mine = (p: string) => p.includes(`${NAME}.lance/_indices/`);
  return { all: open.all.filter(mine), deleted: open.deleted.filter(mine) };
}

/** A file of the current vector index. */
async function anIndexFile(store: IndexStore, dir: string): Promise<string> {
  const table = await store.vectors(NAME, DIM, false);
  const ann = (await table!.listIndices()).find((i) => i.columns.includes('vector'));
  const folder = join(dir, `${NAME}.lance`, '_indices', ann!.indexUuid!);
  return join(folder, readdirSync(folder)[0]!);
}

async function search(store: IndexStore, i: number): Promise<void> {
  const table = await store.vectors(NAME, DIM, false);
  const hits = await new VectorReads(table!).nearest(new Float32Array(vector(i)), undefined, 5);
  assert.equal(hits.length, 5);
}

test(
  'passes that replace the vector index leave neither its old files nor more descriptors open',
  { timeout: 120_000, skip: process.platform !== 'linux' && 'reads /proc/self/fd (Linux only)' },
  async () => {
    const { dir, cleanup } = await tempDir('vector-index-fds');
    const store = await IndexStore.open(dir);
    try {
      await store.vectors(NAME, DIM, true);
      await store.addVectors(NAME, rows(300));
      await store.maintain(NAME, OPTS);
      const counts: number[] = [];
      let heldByControl = 0;
      for (let round = 0; round < 10; round++) {
        await store.vectors(NAME, DIM, false); // the pass reopened the tables
        // Mostly segments; round 5 (the control's) and every third round a rebuild.
        await store.addVectors(NAME, rows(round % 3 === 2 ? 400 : 10));
        await search(store, round);
        const control = round === 5 ? openSync(await anIndexFile(store, dir), 'r') : null;
        await store.maintain(NAME, OPTS);
        await search(store, round + 1);
        await collect();
        if (control !== null) {
          heldByControl = vectorIndexFiles(dir).deleted.length;
          closeSync(control);
        }
        const open = vectorIndexFiles(dir);
        assert.deepEqual(open.deleted, [], `round ${round}: replaced vector index files still open`);
        counts.push(open.all.length);
      }
      assert.ok(heldByControl > 0, 'a file held across the rebuild was not seen deleted: the probe sees nothing');
      assert.ok(Math.max(...counts.slice(-3)) <= Math.max(...counts.slice(0, 3)), `descriptors per round: ${counts}`);
    } finally {
      await store.close();
      await cleanup();
    }
  },
);

/** Folders under the tables' `_indices` with nothing in them. */
function emptyIndexFolders(dir: string): string[] {
  const out: string[] = [];
  for (const table of readdirSync(dir).filter((n) => n.endsWith('.lance'))) {
    const indices = join(dir, table, '_indices');
    let uuids: string[] = [];
    try {
      uuids = readdirSync(indices);
    } catch {
      continue; // a table with no index yet
    }
    for (const u of uuids) if (readdirSync(join(indices, u)).length === 0) out.push(join(table, u));
  }
  return out;
}

test('passes leave no empty index folders behind; LanceDB alone does (the control)', { timeout: 120_000 }, async () => {
  const { dir, cleanup } = await tempDir('vector-index-folders');
  try {
    const store = await IndexStore.open(dir);
    try {
      for (let round = 0; round < 6; round++) {
        await store.vectors(NAME, DIM, true);
        await store.addVectors(NAME, rows(round === 0 ? 300 : round === 3 ? 400 : 10));
        await store.maintain(NAME, OPTS);
      }
      assert.deepEqual(emptyIndexFolders(dir), []);
      await search(store, 1); // what is left still answers
    } finally {
      await store.close();
    }
    // The same kind of passes through LanceDB only (index/maintenance.ts without the prune).
    const db = await lancedb.connect(dir, { readConsistencyInterval: 0 });
    try {
      const table = await db.openTable(NAME);
      for (let round = 0; round < 3; round++) {
        await table.add(rows(round === 1 ? 600 : 10) as unknown as Record<string, unknown>[]);
        await maintain([], table, OPTS);
      }
      table.close();
      assert.ok(emptyIndexFolders(dir).length > 0, 'LanceDB left no empty folder: the check above tests nothing');
    } finally {
      db.close();
    }
  } finally {
    await cleanup();
  }
});
