// Text is indexed without the embedding model: chunks are sized by the model's tokenizer alone, so
// a folder is searchable before (and, text-only, without) the model and its inference workers,
// which cost hundreds of MB and seconds of CPU to start. The chunks must be exactly those the
// loaded model would size.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/engine.js';
import { IndexStore } from '../../main/engine/index/store.js';
import { Embeddings } from '../../main/engine/ingest/embeddings.js';
import { closeParseWorkers, parseSource } from '../../main/engine/ingest/parse-source.js';
import { fallbackCount, type ParseTask } from '../../main/engine/ingest/parse-task.js';
import type { FileRows } from '../../main/engine/ingest/rows.js';
import { BUILTIN_MODEL_ID } from '../../main/engine/embed/builtin/build.js';

let dir: string;
let store: IndexStore;
let cleanup: () => Promise<void>;
let file: string;

// Words of every length and a few scripts, so token counts differ from word counts everywhere.
const WORDS = [
  'retrieval',
  'of',
  'Überschwemmungsgebiete',
  'tokenizer',
  'a',
  'self-contained',
  'café',
  'identifierNamesInCamelCase',
  'snake_case_words',
  '2026-12-02',
  'naïve',
  'x',
  'embeddings',
  'Пример',
  'antidisestablishmentarianism',
];

before(async () => {
  const t = await tempDir('text-before-model');
  dir = t.dir;
  cleanup = t.cleanup;
  store = await IndexStore.open(join(dir, 'index'));
  const folder = join(dir, 'docs');
  await mkdir(folder);
  const paragraphs: string[] = [];
  for (let p = 0; p < 12; p++) {
    const words: string[] = [];
    for (let w = 0; w < 40 + p * 9; w++) words.push(WORDS[(w * 7 + p * 3) % WORDS.length]);
    paragraphs.push(`## Section ${p}\n\n${words.join(' ')}.`);
  }
  file = join(folder, 'long.md');
  await writeFile(file, `# Long notes\n\n${paragraphs.join('\n\n')}\n`);
});

after(async () => {
  await closeParseWorkers();
  await store?.close();
  await cleanup?.();
});

async function task(): Promise<ParseTask> {
  const st = await stat(file);
  const folder = join(dir, 'docs');
  return {
    folder,
    src: { path: file, rel: 'long.md', size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino },
    rebuild: true,
    access: {
      spec: { path: folder },
      opts: { maxFileBytes: 10 * 2 ** 20, respectGitignore: true, extraExcludes: [] },
      epoch: 1,
    },
  };
}

const shape = (rows: FileRows | 'unchanged') => {
  assert.notEqual(rows, 'unchanged');
  const r = rows as FileRows;
  assert.equal(r.file.error_code, '', r.file.error_message);
  return r.chunks.map((c) => [c.start_line, c.end_line, c.text]);
};

test('chunks are sized without loading the model, and equal those sized by the loaded model', async () => {
  const emb = new Embeddings(store, BUILTIN_MODEL_ID, { dataDir: dir, threads: 1, batchSize: 16 });
  try {
    const pooled = await parseSource(emb);
    const inline = await parseSource(emb, false);
    const onWorkers = shape(await pooled.parse(await task(), () => false));
    const onThisThread = shape(await inline.parse(await task(), () => false));
    assert.equal(emb.loaded, false, 'sizing chunks started the embedding model');
    assert.ok(onWorkers.length >= 4, `the file is cut into several chunks (${onWorkers.length})`);
    assert.deepEqual(onThisThread, onWorkers);

    // The control: the same file sized with the model loaded (the old way) gives the same chunks,
    // and the tokenizer-only counts are the model's own.
    const counts = await emb.chunkTokens();
    const model = await emb.get();
    assert.equal(emb.loaded, true, 'the control loads the model');
    for (const text of [...WORDS, WORDS.join(' '), `line one\n\tline two  ${WORDS.join('\n')}`])
      assert.equal(counts.countTokens(text), model.countTokens(text), JSON.stringify(text));
    const withModel = await parseSource(emb, false);
    assert.deepEqual(shape(await withModel.parse(await task(), () => false)), onWorkers);
  } finally {
    await emb.close();
  }
});

test('the tokenizer is read once per version of tokenizer.json, not at every ingest, and again once it changes', async () => {
  const emb = new Embeddings(store, BUILTIN_MODEL_ID, { dataDir: dir, threads: 1, batchSize: 16 });
  const path = join(emb.localDir() as string, 'tokenizer.json');
  // Whole seconds, so that setting the same time again gives the same stat.
  const atime = new Date(1_700_000_000_000);
  const mtime = new Date(1_700_000_000_000);
  await utimes(path, atime, mtime);
  const first = await emb.chunkTokens();
  const real = WORDS.map((w) => first.countWord(w));
  const original = await readFile(path);
  try {
    // A shape the Unigram counter does not reproduce, the same size and time: the same version.
    const foreign = JSON.stringify({ model: { type: 'BPE' } });
    await writeFile(path, foreign.padEnd(original.length, ' '));
    await utimes(path, atime, mtime);
    const cached = await emb.chunkTokens();
    assert.equal(emb.loaded, false, 'the unchanged version was checked again and sent to the model');
    // Read only now that this thread counts: it finds the foreign shape and counts pessimistically.
    const differ = WORDS.filter((w, i) => real[i] !== fallbackCount(w));
    assert.ok(differ.length >= 3, `the control: the real counts differ from the pessimistic ones (${differ})`);
    for (const w of WORDS) assert.equal(cached.countWord(w), fallbackCount(w), w);

    // A new version is checked again: not reproducible, so chunks wait for the model (which fails here).
    await utimes(path, atime, new Date(mtime.getTime() + 10_000));
    await assert.rejects(emb.chunkTokens());
    assert.equal(emb.state, 'error');
  } finally {
    await writeFile(path, original);
    await emb.close();
  }
});
