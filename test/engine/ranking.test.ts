// Ranking properties over a real index (real LanceDB, the real built-in model): the first k hits of
// any search are the hits of the same search with top_k k, in every mode; per_file gives one hit
// per file, at the rank of the file's best chunk.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../main/engine/engine.js';
import { SEARCH_MODES, TOP_K_MAX, type SearchHit } from '../../main/common/search.js';

let engine: Engine;
let folder: string;
const cleanups: (() => Promise<void>)[] = [];

const TOPICS = ['river', 'glacier', 'volcano', 'harbour', 'orchard', 'lighthouse', 'canyon', 'meadow'];
const VERBS = ['measuring', 'mapping', 'restoring', 'surveying', 'photographing', 'protecting'];

/** Files that share words in many proportions, so rankings have long tails and near ties. */
async function writeCorpus(dir: string): Promise<void> {
  await mkdir(join(dir, 'notes'), { recursive: true });
  await mkdir(join(dir, 'src'), { recursive: true });
  let n = 0;
  for (const t of TOPICS) {
    for (const v of VERBS) {
      n++;
      const sections = [0, 1, 2].map(
        (s) =>
          `## Part ${s + 1}\n\n${v} the ${t} ${s + 1} times; the ${TOPICS[(n + s) % TOPICS.length]} team kept notes on ${VERBS[(n + s) % VERBS.length]} work.\n`,
      );
      await writeFile(join(dir, 'notes', `${t}-${v}.md`), `# ${v} the ${t}\n\n${sections.join('\n')}`);
    }
    await writeFile(
      join(dir, 'src', `${t}.ts`),
      `/** Reports on the ${t}. */\nexport function report${t[0].toUpperCase()}${t.slice(1)}(depth: number): string {\n  return '${t} ' + depth;\n}\n`,
    );
  }
}

const key = (h: SearchHit) => `${h.path}:${h.start_line}-${h.end_line}@${h.score}`;

before(async () => {
  const d = await tempDir('ranking');
  cleanups.push(d.cleanup);
  folder = join(d.dir, 'corpus');
  await writeCorpus(folder);
  const t = await tempEngine();
  engine = t.engine;
  cleanups.push(t.cleanup);
  await engine.addFolder({ path: folder });
  await indexNow(engine, folder, 'create');
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const QUERIES = [
  'measuring the river',
  'glacier team notes',
  'lighthouse restoring work',
  'reportCanyon',
  'volcano',
  'photographing a meadow orchard',
];

describe('top_k prefix property', () => {
  for (const mode of SEARCH_MODES) {
    for (const perFile of [false, true]) {
      test(`${mode}${perFile ? ' per_file' : ''}: the first k hits equal the hits at top_k k`, async () => {
        for (const query of QUERIES) {
          const full = (await engine.search({ query, mode, top_k: TOP_K_MAX, folders: [folder], per_file: perFile }))
            .hits;
          // Not vacuous: every query has a long list to take prefixes of.
          assert.ok(full.length >= 20, `${mode} "${query}": only ${full.length} hits`);
          for (const k of [1, 2, 3, 5, 10, 20, 40]) {
            const part = (await engine.search({ query, mode, top_k: k, folders: [folder], per_file: perFile })).hits;
            assert.deepEqual(part.map(key), full.slice(0, k).map(key), `${mode} "${query}" top_k ${k}`);
          }
        }
      });
    }
  }
});

describe('per_file', () => {
  test('one hit per file, at the rank of its best chunk, with the other matching ranges', async () => {
    for (const mode of SEARCH_MODES) {
      const chunks = (await engine.search({ query: 'glacier team notes', mode, top_k: TOP_K_MAX, folders: [folder] }))
        .hits;
      const files = (
        await engine.search({ query: 'glacier team notes', mode, top_k: TOP_K_MAX, folders: [folder], per_file: true })
      ).hits;
      // Control: without per_file a file does come back more than once.
      assert.ok(new Set(chunks.map((h) => h.path)).size < chunks.length, `${mode}: chunk hits should repeat files`);
      assert.equal(new Set(files.map((h) => h.path)).size, files.length, `${mode}: per_file repeated a file`);
      const firstPerPath = chunks.filter((h, i) => chunks.findIndex((x) => x.path === h.path) === i);
      assert.deepEqual(files.slice(0, 10).map(key), firstPerPath.slice(0, 10).map(key), `${mode}: per_file order`);
      // The best file's other ranges are its other chunks in the chunk ranking, in that order.
      const best = files[0];
      const rest = chunks
        .filter((h) => h.path === best.path)
        .slice(1, 11)
        .map((h) => ({ start_line: h.start_line, end_line: h.end_line }));
      assert.ok(rest.length > 0, `${mode}: the best file should match in more than one chunk`);
      assert.deepEqual(best.other_ranges?.slice(0, rest.length), rest, `${mode}: other_ranges of ${best.path}`);
      assert.equal(chunks[0].other_ranges, undefined);
    }
  });

  test('per_file must be a boolean', async () => {
    await assert.rejects(
      engine.search({ query: 'river', per_file: 'yes' as unknown as boolean }),
      (err: Error & { code?: string }) => err.code === 'invalid_argument',
    );
  });
});

describe('dense weight by kind of file', () => {
  const codeOrder = async (mode: 'sparse' | 'hybrid') =>
    (
      await engine.search({
        query: 'reports on the canyon depth',
        mode,
        top_k: TOP_K_MAX,
        folders: [folder],
        globs: ['src/**'],
      })
    ).hits;

  test('the built-in model has no say on code: hybrid ranks code files as sparse does', async () => {
    const sparse = await codeOrder('sparse');
    const hybrid = await codeOrder('hybrid');
    assert.ok(sparse.length >= 3, 'the query should match several code files');
    assert.deepEqual(
      hybrid.map((h) => h.path),
      sparse.map((h) => h.path),
    );
    assert.ok(hybrid.every((h) => h.legs.vector === undefined));
    // In the whole folder the vector leg still ranks the prose files.
    const all = await engine.search({
      query: 'reports on the canyon depth',
      mode: 'hybrid',
      top_k: TOP_K_MAX,
      folders: [folder],
    });
    assert.ok(all.hits.some((h) => h.kind === 'markdown' && h.legs.vector !== undefined));
    assert.ok(all.legs_answered.includes('vector'));
  });

  test('control: with a dense weight on code the vector leg ranks code chunks too', async () => {
    engine.settings.set({ 'search.vector_weight_code': 0.5 });
    try {
      const hybrid = await codeOrder('hybrid');
      assert.ok(hybrid.some((h) => h.legs.vector !== undefined));
    } finally {
      engine.settings.set({ 'search.vector_weight_code': null });
    }
  });
});
