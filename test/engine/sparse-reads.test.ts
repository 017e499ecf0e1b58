// The sparse leg's cheaper paths give the answers of the full one, on a real LanceDB index:
// - a lone sparse query leaves files that match only as a whole as file entries and chooses their
//   chunks when shown; resolved, its list is the eager leg's list, entry for entry, score for score;
// - beside the dense leg, the chunk search read deeper knows most of those files' chunks, and the
//   entries another list meets are resolved before fusion: the same chunks as the eager leg's;
// - the places cached for the graph leg's seeds, and the files' chunk lists kept for its targets,
//   are those LanceDB holds, are gone once their file is written, and a new process (after a crash)
//   reads the same from LanceDB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { IndexStore } from '../../main/engine/index/store.js';
import { isFileEntry, resolveFileEntries, resolveMetEntries, sparseLeg } from '../../main/engine/search/legs.js';
import { indexNow, tempDir } from '../helpers/engine.js';

const WORDS = [
  'harbour',
  'pilot',
  'tide',
  'anchor',
  'lantern',
  'ledger',
  'quarry',
  'meadow',
  'signal',
  'furnace',
  'orchard',
  'compass',
  'glacier',
  'beacon',
  'kettle',
  'saddle',
];

/** Files whose words are spread over many sections: many match as a whole with no chunk among the best. */
function fileText(i: number): string {
  const out = [`# Notes ${i}`, ''];
  for (let s = 0; s < 8; s++) {
    out.push(`## Part ${s}`, '');
    const words = Array.from({ length: 40 }, (_, k) => WORDS[(i * 7 + s * 3 + k * k) % WORDS.length]);
    out.push(words.join(' ') + '.', '');
  }
  return out.join('\n');
}

const QUERIES = [
  'harbour pilot',
  'tide anchor lantern',
  'ledger quarry',
  'meadow signal furnace',
  'orchard',
  'compass glacier beacon kettle',
  'saddle harbour',
  'pilot furnace quarry',
];

test(
  "a lone sparse query gives the eager leg's list once its file entries are resolved; cached places stay exact",
  { timeout: 300_000 },
  async () => {
    const home = await tempDir('sparse-home');
    const data = await tempDir('sparse-data');
    try {
      await mkdir(join(data.dir, 'notes'), { recursive: true });
      for (let i = 0; i < 40; i++) await writeFile(join(data.dir, 'notes', `n${i}.md`), fileText(i));
      const engine = await openEngine({ home: home.dir });
      engine.settings.set({ 'watch.enabled': false });
      await engine.addFolder({ path: data.dir });
      await indexNow(engine, data.dir, 'create');
      await engine.close();

      const store = await IndexStore.open(join(home.dir, 'index'));
      // Served by the in-memory BM25 (index/sparse-memory.ts), as a running engine's searches are.
      await store.reads.memory.settled();
      try {
        let entries = 0;
        // A small depth makes most matching files miss the chunk list (the case the entries stand for).
        for (const depth of [5, 10, 40]) {
          for (const q of QUERIES) {
            const eager = await sparseLeg(store.reads, q, undefined, depth, 1, 1, false);
            const lazy = await sparseLeg(store.reads, q, undefined, depth, 1, 1, true);
            assert.ok(eager.ids.length > 0, `${q}: no match at all`);
            const fileIds = lazy.ids.filter(isFileEntry);
            entries += fileIds.length;
            assert.equal(eager.ids.some(isFileEntry), false, 'the eager leg holds chunks only');
            const chosen =
              fileIds.length > 0 && lazy.fileSearch
                ? await resolveFileEntries(store.reads, lazy.fileSearch, fileIds)
                : new Map();
            const resolved = lazy.ids.map((id) => (isFileEntry(id) ? chosen.get(id)?.id : id));
            assert.deepEqual(new Set(resolved), new Set(eager.ids), `${q} at depth ${depth}: other chunks`);
            // Entry for entry: the same chunk, score and file at every rank.
            assert.deepEqual(resolved, eager.ids, `${q} at depth ${depth}: the order`);
            assert.deepEqual(lazy.scores, eager.scores, `${q}: the scores`);
            assert.deepEqual(lazy.paths, eager.paths, `${q}: the files`);
            assert.deepEqual(lazy.rels, eager.rels, `${q}: the relative paths`);
          }
        }
        // A control: the entries were there to resolve (with no file entry the check above proves nothing).
        assert.ok(entries > 20, `only ${entries} file entries over all queries`);

        // Beside the dense leg: a deeper chunk search, then the entries another list meets resolved
        // before fusion, the others when shown. Every step gives the eager leg's chunks.
        let known = 0;
        let met = 0;
        for (const depth of [5, 10]) {
          for (const q of QUERIES) {
            // The reference reads as deep: where scores tie at the list's cut, a deeper read keeps
            // other tied chunks than LanceDB's own pick at that depth (this corpus ties often).
            const eager = await sparseLeg(store.reads, q, undefined, depth, 1, 1, false, true);
            const deep = await sparseLeg(store.reads, q, undefined, depth, 1, 1, true, true);
            const shallow = await sparseLeg(store.reads, q, undefined, depth, 1, 1, true);
            known += shallow.ids.filter(isFileEntry).length - deep.ids.filter(isFileEntry).length;
            assert.deepEqual(deep.scores, eager.scores, `${q}: the scores`);
            assert.deepEqual(deep.paths, eager.paths, `${q}: the files`);
            deep.ids.forEach((id, i) => isFileEntry(id) || assert.equal(id, eager.ids[i], `${q}: rank ${i + 1}`));
            // Every other entry is met (as if the dense list held a chunk of its file).
            const some = new Set(deep.paths?.filter((_, i) => isFileEntry(deep.ids[i]) && i % 2 === 0));
            const after = await resolveMetEntries(store.reads, deep, some);
            met += some.size;
            after.ids.forEach((id, i) => {
              if (some.has(after.paths?.[i] ?? '')) assert.equal(id, eager.ids[i], `${q}: met entry at rank ${i + 1}`);
              else assert.equal(id, deep.ids[i], `${q}: an entry no list met was resolved`);
            });
            for (const id of some) assert.ok(after.rows?.has(eager.ids[deep.paths!.indexOf(id)]), 'its place is kept');
            const rest = after.ids.filter(isFileEntry);
            const chosen =
              rest.length > 0 && after.fileSearch
                ? await resolveFileEntries(store.reads, after.fileSearch, rest)
                : new Map();
            assert.deepEqual(
              after.ids.map((id) => (isFileEntry(id) ? chosen.get(id)?.id : id)),
              eager.ids,
              `${q} at depth ${depth}: resolved`,
            );
          }
        }
        // Controls: the deeper search knew chunks the lazy list left as entries, and entries were met.
        assert.ok(known > 0, 'the deeper chunk search knew no file entry');
        // Which of a tie at a list's cut it keeps decides this count (LanceDB by row: 6; in memory by path: 5).
        assert.ok(met >= 5, `only ${met} entries were met`);

        // Places: what LanceDB holds, the same read again by a new process (the cache is memory only).
        const leg = await sparseLeg(store.reads, 'harbour pilot', undefined, 20, 1, 1, false);
        const some = leg.ids.slice(0, 5);
        const places = await store.reads.placesOf(some);
        assert.equal(places.size, some.length, 'every live chunk has its place');
        const fresh = await IndexStore.open(join(home.dir, 'index'));
        try {
          assert.deepEqual(await fresh.reads.placesOf(some), places);
        } finally {
          await fresh.close();
        }
        // A write of the file (here: to no chunks) drops its cached places; the other file's stay.
        const gone = places.get(some[0]);
        assert.ok(gone);
        // Its chunk list, kept for the graph leg: what a new process reads, the second time too.
        const byId = (xs: { id: string }[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : 1));
        const served = store.reads.memory.served;
        const listed = byId(await store.reads.chunksOf([gone.path]));
        assert.ok(listed.length > 1, 'the file has chunks to keep');
        assert.equal(store.reads.memory.served, served + 1, 'the in-memory mirror listed them');
        assert.deepEqual(byId(await store.reads.chunksOf([gone.path])), listed, 'the kept list');
        const again = await IndexStore.open(join(home.dir, 'index'));
        try {
          // A new store's mirror is not built yet: this list is read from LanceDB.
          assert.deepEqual(byId(await again.reads.chunksOf([gone.path])), listed, 'the list LanceDB holds');
          assert.equal(again.reads.memory.served, 0, 'control: LanceDB answered');
        } finally {
          await again.close();
        }
        // Hit rows: the mirror holds their text (within its budget) and gives them without a read;
        // with no text held, their places are known (from the mirror, by the files the leg found
        // the chunks in) and only the shown columns are read. Either way, the rows a full read gives.
        const shown = leg.ids.filter((id) => !isFileEntry(id)).slice(0, 6);
        const pathOf = (id: string) => leg.paths?.[leg.ids.indexOf(id)];
        for (const budget of [Infinity, 0]) {
          const narrow = await IndexStore.open(join(home.dir, 'index'));
          try {
            const full = await narrow.reads.hitRows(shown);
            assert.equal(full.size, shown.length, 'every shown chunk has its row');
            assert.equal(narrow.reads.memory.served, 0, 'control: with no path given, LanceDB gave the rows');
            // The store began building its mirror at open: built again with this budget.
            await narrow.reads.memory.settled();
            narrow.reads.memory.textBudget = budget;
            narrow.reads.memory.forgetAll();
            narrow.reads.memory.warm();
            await narrow.reads.memory.settled();
            let reads = 0;
            const query = narrow.reads['chunks'].query.bind(narrow.reads['chunks']);
            narrow.reads['chunks'].query = () => (reads++, query());
            assert.deepEqual(
              await narrow.reads.hitRows(shown, pathOf),
              full,
              `rows from the mirror (budget ${budget})`,
            );
            assert.equal(narrow.reads.memory.served, 1, 'the mirror was asked');
            assert.equal(reads, budget === 0 ? 1 : 0, `LanceDB reads with text budget ${budget}`);
            // A wrong file for an id: it is not found there, and the full read answers.
            assert.deepEqual(await narrow.reads.hitRows(shown, () => '/nowhere'), full, 'rows with a wrong path');
          } finally {
            await narrow.close();
          }
        }
        const kept = [...places.values()].find((p) => p.path !== gone.path);
        const file = {
          path: gone.path,
          folder: gone.folder,
          rel: gone.rel,
          hash: 'x',
          size: 0,
          mtime: 0,
          chunks: 0,
          embedded: true,
          error_code: '',
          error_message: '',
          indexed_at: Date.now(),
          ctime: 0,
          ino: 0,
        };
        await store.writeFiles([{ file, chunks: [], nodes: [], edges: [] }], null);
        const after = await store.reads.placesOf(some);
        assert.equal(after.has(some[0]), false, 'a chunk of the rewritten file is still served from the cache');
        if (kept) assert.deepEqual(after.get(kept.id), kept, 'a place of another file was lost');
        const before = store.reads.memory.served;
        assert.equal(
          (await store.reads.chunksOf([gone.path])).length,
          0,
          'the kept chunk list of the rewritten file is still served',
        );
        assert.equal(store.reads.memory.served, before + 1, 'the mirror answered, the written file read again');
        assert.equal(
          (await store.reads.chunksOf([gone.path], 'true')).length,
          0,
          'control: LanceDB holds no chunk of the file any more',
        );
      } finally {
        await store.close();
      }
    } finally {
      await home.cleanup();
      await data.cleanup();
    }
  },
);
