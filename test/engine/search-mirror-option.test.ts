// An engine opened for one command (the CLI with no engine running) never builds the sparse leg's
// in-memory BM25, and its searches still give what the mirror gives: LanceDB answers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';

const QUERIES = ['harbour pilot', 'lantern ledger', 'quarry meadow signal', 'orchard'];
const WORDS = ['harbour', 'pilot', 'tide', 'anchor', 'lantern', 'ledger', 'quarry', 'meadow', 'signal', 'orchard'];

test('searchMirror: false reads LanceDB only, with the same answers', { timeout: 120_000 }, async () => {
  const home = await tempDir('mirror-home');
  const data = await tempDir('mirror-data');
  try {
    await mkdir(join(data.dir, 'notes'), { recursive: true });
    for (let i = 0; i < 30; i++) {
      const words = Array.from({ length: 60 }, (_, k) => WORDS[(i * 3 + k * k) % WORDS.length]);
      await writeFile(join(data.dir, 'notes', `n${i}.md`), `# Note ${i}\n\n${words.join(' ')}.\n`);
    }
    const first = await openEngine({ home: home.dir });
    first.settings.set({ 'watch.enabled': false });
    await first.addFolder({ path: data.dir, text_only: true });
    await indexNow(first, data.dir, 'create');
    await first.close();

    const answers = async (searchMirror: boolean | undefined) => {
      const engine = await openEngine({ home: home.dir, searchMirror });
      try {
        const memory = engine.store.reads.memory;
        await memory.settled();
        const out: string[][] = [];
        for (const query of QUERIES) {
          const r = await engine.search({ query, mode: 'sparse', top_k: 10 });
          out.push(r.hits.map((h) => `${h.path}:${h.start_line}`));
        }
        await memory.settled();
        return { out, served: memory.served, built: memory.stats() !== null };
      } finally {
        await engine.close();
      }
    };
    const oneShot = await answers(false);
    // Control: opened by default the mirror is built and answers, so the counters can tell.
    const serving = await answers(undefined);
    assert.ok(serving.built && serving.served > 0, 'by default the in-memory BM25 is built and serves');
    assert.equal(oneShot.built, false, 'no mirror built');
    assert.equal(oneShot.served, 0, 'no search answered from memory');
    assert.ok(oneShot.out.every((hits) => hits.length > 0));
    assert.deepEqual(oneShot.out, serving.out);
  } finally {
    await home.cleanup();
    await data.cleanup();
  }
});
