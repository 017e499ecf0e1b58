// The sparse leg's in-memory BM25 (index/sparse-memory.ts) ranks as LanceDB's full-text index does,
// on real LanceDB tables written by a real indexing run:
// - the same chunks and files, in the same order, with the same scores (f32 tolerance), for many
//   queries; a mirror scored with a wrong K1 fails the same comparison (the control);
// - after adds, edits and removals through the store, and after a reopen, it equals LanceDB's
//   index built afresh over the same rows (LanceDB's own incremental index keeps removed rows in
//   its statistics until a compaction, see index/bm25.ts);
// - filtered searches (folder, file type, date, path IN) keep the same answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { IndexStore, type FileWrite } from '../../main/engine/index/store.js';
import { analyzeQuery } from '../../main/engine/index/analyzer.js';
import { MemoryTable, type FileOrigin } from '../../main/engine/index/memory-table.js';
import type { RowFilter } from '../../main/engine/index/row-filter.js';
import type { FileRow } from '../../main/engine/index/schema.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { seeded } from '../helpers/random.js';

const WORDS = (
  'harbour pilot tide anchor lantern ledger quarry meadow signal furnace orchard compass glacier beacon ' +
  'kettle saddle river cobble thistle marble copper falcon willow ember cinder basalt juniper walnut ' +
  'heron badger cedar granite prairie tundra canyon delta lagoon summit valley'
).split(' ');

function rng(seed: number): () => number {
  return seeded(seed).float;
}

/** Zipf-like words, so that scores spread (few ties) and common words match most chunks. */
function words(r: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(r() ** 2 * WORDS.length)]).join(' ');
}

function markdown(r: () => number, i: number): string {
  const out = [`# Notes ${i}`, ''];
  for (let s = 0; s < 2 + Math.floor(r() * 6); s++)
    out.push(`## Part ${s}`, '', words(r, 10 + Math.floor(r() * 120)) + '.', '');
  return out.join('\n');
}

function code(r: () => number, i: number): string {
  const out: string[] = [];
  for (let f = 0; f < 2 + Math.floor(r() * 4); f++)
    out.push(
      `// ${words(r, 8)}`,
      `export function ${WORDS[(i + f) % WORDS.length]}Step${f}(x: number) {`,
      `  return x + ${f}; // ${words(r, 6)}`,
      '}',
      '',
    );
  return out.join('\n');
}

function queries(r: () => number, n: number): string[] {
  const out = ['harbour', 'pilot tide', 'summit summit valley', 'anchor anchor', 'nothing-matches-this', 'Notes Part'];
  while (out.length < n) out.push(words(r, 1 + Math.floor(r() * 4)));
  return out;
}

interface Scored {
  score: number;
}

/**
 * Equal lists: the same length, scores equal to f32 rounding rank by rank, and the same rows in
 * each run of equal scores (above the cut; at the cut LanceDB keeps some of a tie by its row order).
 */
function sameRanking<T extends Scored>(got: T[], want: T[], key: (r: T) => string, what: string): void {
  assert.equal(got.length, want.length, `${what}: ${got.length} rows, LanceDB ${want.length}`);
  const close = (a: number, b: number) => Math.abs(a - b) <= 2e-6 * Math.max(Math.abs(a), Math.abs(b));
  got.forEach((g, i) =>
    assert.ok(close(g.score, want[i].score), `${what}: rank ${i + 1} ${g.score} vs ${want[i].score}`),
  );
  const cut = want.at(-1)?.score ?? 0;
  for (let i = 0; i < want.length;) {
    let j = i;
    while (j < want.length && close(want[j].score, want[i].score)) j++;
    if (!close(want[i].score, cut)) {
      const a = got.slice(i, j).map(key).sort();
      const b = want.slice(i, j).map(key).sort();
      assert.deepEqual(a, b, `${what}: ranks ${i + 1}-${j}`);
    }
    i = j;
  }
  // Where no two scores tie, the order is the same row for row. Ties are to f32 rounding: LanceDB
  // sums a row's terms in an order of its own, so scores a unit in the last place apart may swap.
  const above = want.filter((w) => !close(w.score, cut)).length;
  const distinct = want.slice(0, above).every((w, i, a) => i === 0 || !close(a[i - 1].score, w.score));
  if (distinct) assert.deepEqual(got.slice(0, above).map(key), want.slice(0, above).map(key), `${what}: the order`);
}

async function compare(
  mem: IndexStore,
  lance: IndexStore,
  qs: string[],
  filter?: RowFilter,
  label = '',
): Promise<number> {
  let rows = 0;
  let listed = 0;
  const served = mem.reads.memory.served;
  for (const q of qs) {
    const match = analyzeQuery(q);
    for (const limit of [5, 40, 400]) {
      const what = `${label}[${q}] limit ${limit}`;
      const [gc, wc] = [
        await mem.reads.matchChunks(match, filter, limit),
        await lance.reads.matchChunks(match, filter, limit),
      ];
      sameRanking(gc, wc, (r) => r.id, `${what} chunks`);
      const [gd, wd] = [
        await mem.reads.matchDocs(match, filter, limit),
        await lance.reads.matchDocs(match, filter, limit),
      ];
      sameRanking(gd, wd, (r) => r.path, `${what} docs`);
      rows += wc.length + wd.length;
    }
    // The chunks of the best files (how file entries and the graph leg's targets find theirs).
    const paths = [...new Set((await lance.reads.matchChunks(match, filter, 10)).map((r) => r.path))];
    const ids = async (s: IndexStore) =>
      (await s.reads.chunksOf(paths)).map((r) => `${r.id} ${r.path} ${r.start_line}-${r.end_line} ${r.page}`).sort();
    const [gp, wp] = [await ids(mem), await ids(lance)];
    // No file to list (nothing matched the filter): chunksOf asks neither LanceDB nor the mirror.
    if (paths.length > 0) listed++;
    assert.ok(wp.length >= paths.length, `${label}[${q}]: LanceDB lists no chunk of a file`);
    assert.deepEqual(gp, wp, `${label}[${q}] the files' chunks`);
  }
  assert.equal(mem.reads.memory.served - served, qs.length * 6 + listed, `${label}: searches not answered from memory`);
  return rows;
}

/** A store whose searches all go to LanceDB: the reference. */
async function lanceOnly(dir: string): Promise<IndexStore> {
  const s = await IndexStore.open(dir);
  s.reads.memory.disable();
  return s;
}

async function mirrored(dir: string): Promise<IndexStore> {
  const s = await IndexStore.open(dir);
  await s.reads.memory.settled();
  assert.ok(s.reads.memory.stats(), 'the mirror was built');
  return s;
}

async function fixture(): Promise<{ index: string; folders: string[]; cleanup: () => Promise<void> }> {
  const home = await tempDir('mem-home');
  const data = await tempDir('mem-data');
  const r = rng(11);
  const folders = [join(data.dir, 'a'), join(data.dir, 'b')];
  for (const [k, f] of folders.entries()) {
    await mkdir(join(f, 'docs'), { recursive: true });
    await mkdir(join(f, 'src'), { recursive: true });
    for (let i = 0; i < 30; i++) await writeFile(join(f, 'docs', `n${i}.md`), markdown(r, i + k * 100));
    for (let i = 0; i < 8; i++) await writeFile(join(f, 'docs', `t${i}.txt`), words(r, 30 + i * 20));
    for (let i = 0; i < 10; i++) await writeFile(join(f, 'src', `m${i}.ts`), code(r, i));
  }
  const engine = await openEngine({ home: home.dir });
  engine.settings.set({ 'watch.enabled': false });
  for (const f of folders) {
    await engine.addFolder({ path: f });
    await indexNow(engine, f, 'create');
  }
  await engine.close();
  return {
    index: join(home.dir, 'index'),
    folders,
    cleanup: async () => {
      await home.cleanup();
      await data.cleanup();
    },
  };
}

test('in-memory BM25 gives LanceDB full-text answers; a wrong K1 does not', { timeout: 300_000 }, async (t) => {
  const fx = await fixture();
  const scratch = await tempDir('mem-copy');
  const mem = await mirrored(fx.index);
  const live = await lanceOnly(fx.index);
  const lance = await freshCopy(mem, scratch.dir);
  try {
    const qs = queries(rng(3), 60);
    const rows = await compare(mem, lance, qs);
    assert.ok(rows > 2000, `only ${rows} rows compared`);
    // How far the indexed store's own full-text index is from the same rows indexed afresh (its
    // statistics still count rows replaced by the indexing run): reported, not asserted.
    let worst = 0;
    for (const q of qs) {
      const want = new Map(
        (await lance.reads.matchChunks(analyzeQuery(q), undefined, 400)).map((c) => [c.id, c.score]),
      );
      for (const c of await live.reads.matchChunks(analyzeQuery(q), undefined, 400))
        if (want.has(c.id)) worst = Math.max(worst, Math.abs(c.score - want.get(c.id)!) / c.score);
    }
    t.diagnostic(
      `the store's incremental LanceDB index differs from a fresh one by up to ${(worst * 100).toFixed(2)} % of a score`,
    );

    // Control: the same rows scored with K1 1.5 do not give LanceDB's scores.
    const wrong = new MemoryTable<{ id: string; file: FileOrigin }>({ k1: 1.5, b: 0.75 });
    const right = new MemoryTable<{ id: string; file: FileOrigin }>();
    for (const c of await mem.storedRows('chunks', null)) {
      wrong.add({ id: c.id, file: c }, c.search_text);
      right.add({ id: c.id, file: c }, c.search_text);
    }
    let differ = 0;
    for (const q of qs) {
      const want = new Map(
        (await lance.reads.matchChunks(analyzeQuery(q), undefined, 400)).map((c) => [c.id, c.score]),
      );
      for (const [t, off] of [
        [wrong, 1],
        [right, 0],
      ] as const) {
        const bad = t
          .best(
            analyzeQuery(q),
            undefined,
            1e9,
            (e, score) => ({ id: e.id, score }),
            (rows) => rows,
          )
          .filter((h) => want.has(h.id) && Math.abs(h.score - want.get(h.id)!) > 1e-5 * h.score).length;
        if (off) differ += bad;
        else assert.equal(bad, 0, `[${q}]: the correct parameters differ from LanceDB`);
      }
    }
    assert.ok(differ > 100, `a wrong K1 changed only ${differ} scores`);
  } finally {
    await mem.close();
    await live.close();
    await lance.close();
    await scratch.cleanup();
    await fx.cleanup();
  }
});

/** Every row of `from` written to a new index: LanceDB's full-text index over exactly these rows. */
async function freshCopy(from: IndexStore, dir: string): Promise<IndexStore> {
  const [chunks, docs] = [await from.storedRows('chunks', null), await from.storedRows('docs', null)];
  const to = await IndexStore.open(dir);
  to.reads.memory.disable();
  const writes = new Map<string, FileWrite>();
  const fileOf = (o: FileOrigin): FileRow => ({
    path: o.path,
    folder: o.folder,
    rel: o.rel,
    hash: 'h',
    size: 1,
    mtime: o.mtime,
    chunks: 0,
    embedded: true,
    error_code: '',
    error_message: '',
    indexed_at: 0,
    ctime: 0,
    ino: 0,
  });
  for (const c of chunks) {
    const w = writes.get(c.path) ?? { file: fileOf(c), chunks: [], nodes: [], edges: [], fresh: true };
    w.chunks.push(c);
    writes.set(c.path, w);
  }
  for (const d of docs) {
    const w = writes.get(d.path) ?? { file: fileOf(d), chunks: [], nodes: [], edges: [], fresh: true };
    w.doc = d;
    writes.set(d.path, w);
  }
  await to.writeFiles([...writes.values()], null);
  return to;
}

test(
  'after adds, edits, removals and a reopen the mirror equals LanceDB over the same rows',
  { timeout: 300_000 },
  async () => {
    const fx = await fixture();
    const scratch = await tempDir('mem-copy');
    let mem = await mirrored(fx.index);
    try {
      const qs = queries(rng(5), 30);
      const chunks = await mem.storedRows('chunks', null);
      const docs = await mem.storedRows('docs', null);
      const paths = [...new Set(chunks.map((c) => c.path))].sort();
      const r = rng(9);
      // An edit: a file's chunks get other words, new ids (as an edited file's rows do) and a new
      // mtime, and its committed rows are taken as written. The third file keeps its ids, as a
      // rebuild's rows of an unchanged file do: the table keeps the rows it held under them, and
      // the mirror reads that file back instead of taking what was written (SparseMemory.written).
      const edited = paths.slice(0, 3).map((p, k): FileWrite => {
        const d0 = docs.find((x) => x.path === p)!;
        const edit = k < 2;
        const mtime = edit ? d0.mtime + 1000 : d0.mtime;
        const v2 = (id: string) => (edit ? `${id}-v2` : id);
        const cs = chunks
          .filter((c) => c.path === p)
          .map((c, i) => ({ ...c, mtime, id: v2(c.id), search_text: analyzeQuery(words(r, 20 + i)) }));
        const d = { ...d0, mtime, id: v2(d0.id) };
        return {
          file: {
            path: p,
            folder: d.folder,
            rel: d.rel,
            hash: 'e',
            size: 1,
            mtime: d.mtime,
            chunks: cs.length,
            embedded: true,
            error_code: '',
            error_message: '',
            indexed_at: 0,
            ctime: 0,
            ino: 0,
          },
          doc: { ...d, text: cs.map((c) => c.search_text).join(' ') },
          chunks: cs,
          nodes: [],
          edges: [],
        };
      });
      // An add: a new file with words of its own and common ones.
      const base = docs[0];
      const added: FileWrite = {
        file: {
          path: `${base.path}.new.md`,
          folder: base.folder,
          rel: `${base.rel}.new.md`,
          hash: 'n',
          size: 1,
          mtime: 1,
          chunks: 2,
          embedded: true,
          error_code: '',
          error_message: '',
          indexed_at: 0,
          ctime: 0,
          ino: 0,
        },
        doc: {
          ...base,
          id: 'newdoc',
          path: `${base.path}.new.md`,
          rel: `${base.rel}.new.md`,
          text: analyzeQuery('zephyr harbour harbour pilot'),
        },
        chunks: [0, 1].map((i) => ({
          ...chunks[0],
          id: `new-${i}`,
          path: `${base.path}.new.md`,
          rel: `${base.rel}.new.md`,
          start_line: i * 10 + 1,
          search_text: analyzeQuery(i ? 'zephyr harbour' : 'zephyr zephyr pilot tide'),
        })),
        nodes: [],
        edges: [],
        fresh: true,
      };
      // Hostile text: a lone surrogate is stored as U+FFFD, so this file is read back, not taken.
      const odd: FileWrite = {
        ...added,
        file: { ...added.file, path: `${base.path}.odd.md`, rel: `${base.rel}.odd.md` },
        doc: { ...added.doc!, id: 'odddoc', path: `${base.path}.odd.md`, rel: `${base.rel}.odd.md` },
        chunks: [
          {
            ...added.chunks[0],
            id: 'odd-0',
            path: `${base.path}.odd.md`,
            rel: `${base.rel}.odd.md`,
            text: 'quokka \ud800 half',
            search_text: analyzeQuery('quokka \ud800 half'),
          },
        ],
      };
      const applied = mem.reads.memory.applied;
      // Searches run all through the writes: a refresh that reads a write's rows half done must not
      // leave the mirror behind once the write has committed.
      let writing = true;
      let raced = 0;
      const racing = (async () => {
        while (writing) {
          await mem.reads.matchChunks(analyzeQuery('zephyr harbour'), undefined, 20);
          raced++;
          // An answer from memory takes no I/O: let the write's own callbacks run between searches.
          await new Promise((r) => setImmediate(r));
        }
      })();
      await mem.writeFiles([...edited, added, odd], null);
      const taken = mem.reads.memory.applied - applied;
      await mem.removeFiles(fx.folders[1], paths.filter((p) => p.startsWith(fx.folders[1])).slice(0, 4));
      writing = false;
      await racing;
      assert.ok(raced > 2, `only ${raced} searches ran beside the writes`);

      let n = 0;
      const check = async (label: string) => {
        const ref = await freshCopy(mem, join(scratch.dir, `copy-${n++}`));
        try {
          await compare(mem, ref, [...qs, 'zephyr', 'zephyr pilot'], undefined, label);
          assert.equal(
            (await mem.reads.matchChunks(analyzeQuery('zephyr'), undefined, 10)).length,
            2,
            `${label}: the added file`,
          );
          const text = async (s: IndexStore) => {
            const hits = await s.reads.matchChunks(analyzeQuery('quokka'), undefined, 10);
            const pathOf = (id: string) => hits.find((h) => h.id === id)?.path;
            return [
              ...(
                await s.reads.hitRows(
                  hits.map((h) => h.id),
                  pathOf,
                )
              ).values(),
            ].map((h) => h.text);
          };
          assert.deepEqual(await text(mem), await text(ref), `${label}: the odd file's text as stored`);
          assert.match((await text(mem))[0] ?? '', /\ufffd/, `${label}: the lone surrogate was stored as U+FFFD`);
        } finally {
          await ref.close();
        }
      };
      assert.ok(mem.reads.memory.stats(), 'still mirrored after the writes');
      await check('after writes ');
      // After the comparison, so that a mirror that took the wrong files fails it first.
      assert.equal(taken, 3, 'the edits and the add were taken as written');
      // A maintenance pass reopens the tables; the mirror stays.
      await mem.maintain(null, { vectorIndexThreshold: 1e9, keepVersionsMs: 0, retireAfterMs: 0 });
      await check('after maintain ');
      await mem.close();
      mem = await mirrored(fx.index);
      await check('after reopen ');
    } finally {
      await mem.close();
      await scratch.cleanup();
      await fx.cleanup();
    }
  },
);

test('filtered sparse searches answer as LanceDB does', { timeout: 300_000 }, async () => {
  const fx = await fixture();
  const scratch = await tempDir('mem-copy');
  const mem = await mirrored(fx.index);
  const lance = await freshCopy(mem, scratch.dir);
  try {
    const qs = queries(rng(8), 15);
    const docs = await mem.storedRows('docs', null);
    const mtimes = docs.map((d) => d.mtime).sort((a, b) => a - b);
    const filters: RowFilter[] = [
      { folders: [fx.folders[0]] },
      { folders: [] },
      { types: { kinds: ['code'], exts: [] } },
      { types: { kinds: ['markdown'], exts: ['txt'] } },
      { folders: [fx.folders[1]], mtimeFrom: mtimes[Math.floor(mtimes.length / 2)] },
      { mtimeTo: mtimes[Math.floor(mtimes.length / 3)] },
      { paths: docs.filter((_, i) => i % 3 === 0).map((d) => d.path) },
      { folders: [fx.folders[0]], paths: docs.slice(0, 20).map((d) => d.path) },
    ];
    for (const [i, f] of filters.entries()) {
      const rows = await compare(mem, lance, qs, f, `filter ${i} `);
      if (f.folders?.length !== 0) assert.ok(rows > 0, `filter ${i} matched nothing: not a test of it`);
    }
  } finally {
    await mem.close();
    await lance.close();
    await scratch.cleanup();
    await fx.cleanup();
  }
});
