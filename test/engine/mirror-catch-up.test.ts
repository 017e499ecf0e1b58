// The sparse leg's in-memory BM25 takes an ingest's rows as they are committed (SparseMemory.written),
// so the first search after a large ingest is answered from memory at once instead of first reading
// every written path back from LanceDB; a path written again while a read of changed paths runs
// (SparseMemory.catchUp) is not taken from that read, and is read again before any search is
// answered from memory. That the rows taken equal those read back: test/engine/sparse-memory.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';

const WORDS = ['harbour', 'pilot', 'tide', 'anchor', 'lantern', 'ledger', 'quarry', 'meadow', 'signal', 'orchard'];

async function notes(dir: string, n: number, extra = ''): Promise<void> {
  await mkdir(join(dir, 'notes'), { recursive: true });
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 60 }, (_, k) => WORDS[(i * 3 + k * k) % WORDS.length]);
    await writeFile(join(dir, 'notes', `n${i}.md`), `# Note ${i}\n\n${words.join(' ')} ${extra}.\n`);
  }
}

test('an ingest leaves the mirror current: the first search reads nothing back', { timeout: 120_000 }, async () => {
  const home = await tempDir('catchup-home');
  const data = await tempDir('catchup-data');
  const engine = await openEngine({ home: home.dir });
  try {
    engine.settings.set({ 'watch.enabled': false });
    const memory = engine.store.reads.memory;
    await memory.settled();
    await notes(data.dir, 40);
    await engine.addFolder({ path: data.dir, text_only: true });
    await indexNow(engine, data.dir, 'create');
    await memory.caughtUp();
    const refreshes = memory.refreshes;
    assert.equal(memory.applied, 40, "every file's committed rows were taken as written");
    const served = memory.served;
    const r = await engine.search({ query: 'harbour lantern', mode: 'sparse', top_k: 5 });
    assert.ok(r.hits.length > 0);
    assert.ok(memory.served > served, 'answered from memory');
    assert.equal(memory.refreshes, refreshes, 'nothing read back at search time');
    assert.equal(memory.stats()?.files, 40);

    // Control: paths changed behind the mirror's back (no catch-up) are read by the next search.
    engine.store.reads.forgetPaths([join(data.dir, 'notes', 'n0.md')]);
    await engine.search({ query: 'harbour lantern', mode: 'sparse', top_k: 5 });
    assert.equal(memory.refreshes, refreshes + 1, 'the search read the changed path first');
  } finally {
    await engine.close();
    await data.cleanup();
    await home.cleanup();
  }
});

test(
  'a path written while a refresh reads is read again, never taken from that read',
  { timeout: 120_000 },
  async () => {
    const home = await tempDir('race-home');
    const data = await tempDir('race-data');
    const engine = await openEngine({ home: home.dir });
    try {
      engine.settings.set({ 'watch.enabled': false });
      const reads = engine.store.reads;
      const memory = reads.memory;
      await notes(data.dir, 6);
      await engine.addFolder({ path: data.dir, text_only: true });
      await indexNow(engine, data.dir, 'create');
      await memory.caughtUp();
      const n0 = join(data.dir, 'notes', 'n0.md');

      // The next refresh reads the tables as they are, then is held until n0 has been written anew.
      type Q = AsyncIterable<unknown>;
      type Tables = Record<'chunks' | 'docs', { query(): { where(w: string): { select(c: string[]): Q } } }>;
      const inner = memory as unknown as { tables: () => Tables };
      const real = inner.tables;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let held = 0;
      const heldRead = (q: Q): Q => ({
        async *[Symbol.asyncIterator]() {
          const batches: unknown[] = [];
          for await (const b of q) batches.push(b);
          held++;
          await gate;
          yield* batches;
        },
      });
      inner.tables = () => {
        inner.tables = real;
        const t = real();
        const wrap = (name: 'chunks' | 'docs') => ({
          query: () => ({
            where: (w: string) => ({ select: (c: string[]) => heldRead(t[name].query().where(w).select(c)) }),
          }),
        });
        return { chunks: wrap('chunks'), docs: wrap('docs') };
      };
      reads.forgetPaths([n0]);
      memory.catchUp();
      while (held < 2) await new Promise((r) => setTimeout(r, 5));
      // What that read holds of n0 is now old: n0 gets a word of its own and is written.
      await writeFile(n0, '# Note 0\n\nzephyr harbour.\n');
      await indexNow(engine, data.dir, 'update');
      release();
      await memory.caughtUp();

      const served = memory.served;
      const hits = await engine.search({ query: 'zephyr', mode: 'sparse', top_k: 10 });
      assert.ok(memory.served > served, 'answered from memory');
      assert.deepEqual(
        hits.hits.map((h) => h.path),
        [n0],
        'n0 is found by its new word: the held read did not stand for it',
      );
    } finally {
      await engine.close();
      await data.cleanup();
      await home.cleanup();
    }
  },
);
