// Rankings are a function of content only: an index that lived through SIGKILLed `cairn index`
// runs while its folder changed, then a plain `cairn index` that completed, answers fixed queries
// with the same top 20 as an index built once from scratch over the same folder. The folder's
// words come from a small vocabulary, so BM25's statistics (document count, lengths, term
// frequencies across documents) decide the order and any residue of the index's history shows.
// Twice: a text-only folder ranked by the sparse leg alone, and a folder with vectors ranked by
// hybrid search (kills then land in the embedding pass too, and fusion reads both legs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { tempDir } from '../helpers/engine.js';
import { cairn, prng, sleep } from './lib.js';

const SEED = Number(process.env.CAIRN_RANKING_SEED ?? 20261202);
const WORDS =
  'garden soil compost tomato water light seed root leaf pest frost mulch prune harvest bloom weed spade hose rain sun shade clay sand loam worm bee'.split(
    ' ',
  );
const FILES = 120;
const KILLS = 6;
const QUERIES = 40;

async function writeNote(dir: string, id: number, version: number): Promise<void> {
  const r = prng(SEED + id * 1000 + version);
  const body = Array.from({ length: 20 + r.int(0, 220) }, () => r.pick(WORDS)).join(' ');
  await writeFile(join(dir, `n${id}.md`), `# note ${id}\n\n${body}\n`);
}

async function versions(home: string): Promise<string> {
  return (await readdir(join(home, 'index', 'chunks.lance', '_versions')).catch(() => [])).join(',');
}

async function indexToEnd(home: string): Promise<void> {
  const cli = cairn(['index'], home);
  const { code } = await cli.exit;
  assert.equal(code, 0, cli.stderr());
}

type Variant = { name: string; text_only: boolean; mode: 'sparse' | 'hybrid' };
const VARIANTS: Variant[] = [
  { name: 'text only, sparse', text_only: true, mode: 'sparse' },
  { name: 'with vectors, hybrid', text_only: false, mode: 'hybrid' },
];

/** The top 20 paths of each fixed query. */
async function rankings(engine: Engine, mode: Variant['mode']): Promise<string[][]> {
  const out: string[][] = [];
  for (let q = 0; q < QUERIES; q++) {
    const r = prng(SEED + 7 + q);
    const query = Array.from({ length: 1 + (q % 3) }, () => r.pick(WORDS)).join(' ');
    out.push((await engine.search({ query, mode, top_k: 20 })).hits.map((h) => h.path));
  }
  return out;
}

async function addFolder(home: string, folder: string, v: Variant): Promise<void> {
  const engine = await openEngine({ home });
  await engine.addFolder({ path: folder, text_only: v.text_only });
  await engine.close();
}

for (const v of VARIANTS) {
  test(`a recovered index ranks as a fresh build does (${v.name}, seed ${SEED})`, { timeout: 900_000 }, async () => {
    const folder = await tempDir('rank-folder');
    const recovered = await tempDir('rank-recovered');
    const fresh = await tempDir('rank-fresh');
    const rng = prng(SEED);
    try {
      const version = new Map<number, number>();
      for (let id = 0; id < FILES; id++) {
        await writeNote(folder.dir, id, 0);
        version.set(id, 0);
      }
      await addFolder(recovered.dir, folder.dir, v);
      let kills = 0;
      for (let run = 0; kills < KILLS; run++) {
        assert.ok(run < KILLS * 3, `only ${kills} runs could be killed mid-write`);
        if (run > 0) {
          // Edits, deletions and new notes between runs, so each run has writes to be killed in.
          for (let i = 0; i < 25; i++) {
            const id = rng.int(0, FILES + 20);
            if (rng.next() < 0.15 && version.has(id)) {
              await rm(join(folder.dir, `n${id}.md`));
              version.delete(id);
            } else {
              const v = (version.get(id) ?? -1) + 1;
              await writeNote(folder.dir, id, v);
              version.set(id, v);
            }
          }
        }
        const before = await versions(recovered.dir);
        const cli = cairn(['index'], recovered.dir);
        let exited = false;
        void cli.exit.then(() => (exited = true));
        while (!exited && (await versions(recovered.dir)) === before) await sleep(5);
        await sleep(rng.int(0, 120));
        if (!exited && cli.child.kill('SIGKILL') && (await cli.exit).signal === 'SIGKILL') kills++;
        else assert.equal((await cli.exit).code, 0, cli.stderr());
      }
      await indexToEnd(recovered.dir);
      await addFolder(fresh.dir, folder.dir, v);
      await indexToEnd(fresh.dir);

      const a = await openEngine({ home: recovered.dir });
      const b = await openEngine({ home: fresh.dir });
      try {
        const [ra, rb] = [await rankings(a, v.mode), await rankings(b, v.mode)];
        assert.ok(
          rb.every((r) => r.length === 20),
          'every query should fill its top 20',
        );
        const same = ra.filter((r, i) => r.join('\n') === rb[i].join('\n')).length;
        assert.equal(same, QUERIES, `${same} of ${QUERIES} queries have the same top 20`);

        // The control: one note's content changed in the fresh build must change some ranking.
        await b.close();
        const id = [...version.keys()][0];
        await writeFile(join(folder.dir, `n${id}.md`), `# note ${id}\n\n${WORDS.join(' ')} ${WORDS.join(' ')}\n`);
        await indexToEnd(fresh.dir);
        const changed = await openEngine({ home: fresh.dir });
        try {
          const rc = await rankings(changed, v.mode);
          assert.ok(
            rc.some((r, i) => r.join('\n') !== ra[i].join('\n')),
            'a changed note changed no ranking: the comparison cannot fail',
          );
        } finally {
          await changed.close();
        }
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await folder.cleanup();
      await recovered.cleanup();
      await fresh.cleanup();
    }
  });
}
