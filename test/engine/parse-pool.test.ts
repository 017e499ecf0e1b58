// Parse workers (ingest/parse-pool.ts) must produce exactly the rows the main thread would, with
// the model's token counts, and turn a file they cannot handle into that file's error row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { createEmbedder } from '../../main/engine/embed/embedder.js';
import { unigramTokenizer } from '../../main/engine/embed/unigram-tokenizer.js';
import { ParsePool } from '../../main/engine/ingest/parse-pool.js';
import { fallbackCount, readAndParse, type ParseTask } from '../../main/engine/ingest/parse-task.js';
import type { FileRows } from '../../main/engine/ingest/rows.js';
import { tempDir } from '../helpers/engine.js';
import { GEO_PY, GUIDE_MD, INVOICE_TS, LIB_RS, README_MD } from '../helpers/fixtures.js';
import { seeded } from '../helpers/random.js';

/** Rows without the one field that records when they were made. */
function comparable(r: FileRows | 'unchanged'): unknown {
  if (r === 'unchanged') return r;
  return { ...r, file: { ...r.file, indexed_at: 0 } };
}

async function writeFixtures(dir: string): Promise<ParseTask[]> {
  const long = `${'wordy '.repeat(4000)}\n${'x'.repeat(9000)}\n`;
  const files: Record<string, string> = {
    'README.md': README_MD,
    'guide.md': GUIDE_MD,
    'invoice.ts': INVOICE_TS,
    'geo.py': GEO_PY,
    'lib.rs': LIB_RS,
    'long-lines.txt': long,
    'odd-space.txt': 'tabs\tand\u00a0nbsp\u3000ideographic  runs \n\n\n end ',
    'page.html': '<html><body><h1>Title</h1><p>Some <b>bold</b> text &amp; more</p></body></html>',
  };
  const tasks: ParseTask[] = [];
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    await writeFile(path, text);
    const st = await stat(path);
    tasks.push({
      folder: dir,
      src: { path, rel, size: st.size, mtimeMs: st.mtimeMs },
      rebuild: false,
      access: {
        spec: { path: dir },
        opts: { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] },
        epoch: 0,
      },
    });
  }
  return tasks;
}

test(
  'workers make the same rows as the main thread, with the model counting (own tokenizer.json and asking)',
  { timeout: 300_000 },
  async () => {
    const { dir, cleanup } = await tempDir('parse-pool');
    const e = await createEmbedder({ model: 'cairn/use-lite', dataDir: dir, threads: 1 });
    const pool = new ParsePool(2);
    try {
      const tasks = await writeFixtures(dir);
      const budget = { maxTokens: e.maxTokens - 16, countTokens: (t: string) => e.countTokens(t) };
      const asked: string[] = [];
      const modelDir = join(dir, 'models', 'cairn', 'use-lite');
      const own = {
        spec: { key: 'own', model: true, tokenizerDir: modelDir },
        countWord: (w: string) => (asked.push(w), e.countTokens(w)),
      };
      // No tokenizer folder: every word's count comes from this thread.
      const remote = { spec: { key: 'remote', model: true }, countWord: (w: string) => e.countTokens(w) };
      for (const task of tasks) {
        const inline = comparable(await readAndParse(task, budget));
        assert.deepEqual(comparable(await pool.parse(task, budget.maxTokens, own, () => false)), inline, task.src.rel);
        assert.deepEqual(
          comparable(await pool.parse(task, budget.maxTokens, remote, () => false)),
          inline,
          task.src.rel,
        );
      }
      assert.deepEqual(asked, [], 'a worker with the tokenizer.json counts on its own thread');
      // All at once: each worker holds several files (parse-pool.ts PARSE_QUEUE) and parses them in
      // turn, asking this thread for word counts between them; every answer is still its own file's.
      for (const counter of [own, remote]) {
        const together = await Promise.all(tasks.map((t) => pool.parse(t, budget.maxTokens, counter, () => false)));
        const inline = await Promise.all(tasks.map(async (t) => comparable(await readAndParse(t, budget))));
        assert.deepEqual(together.map(comparable), inline, counter.spec.key);
      }
    } finally {
      await pool.close();
      await e.close();
      await cleanup();
    }
  },
);

test('without a model, workers chunk with the pessimistic count; unchanged files are reported unchanged', async () => {
  const { dir, cleanup } = await tempDir('parse-pool-nomodel');
  const pool = new ParsePool(1);
  try {
    const tasks = await writeFixtures(dir);
    const counter = { spec: { key: '', model: false } };
    for (const task of tasks) {
      const rows = await pool.parse(task, 112, counter, () => false);
      assert.deepEqual(
        comparable(rows),
        comparable(await readAndParse(task, { maxTokens: 112, countTokens: fallbackCount })),
        task.src.rel,
      );
      assert.ok(rows !== 'unchanged' && rows.chunks.length > 0, task.src.rel);
      const prev = { hash: rows.file.hash, error_code: '', mtime: task.src.mtimeMs };
      assert.equal(await pool.parse({ ...task, prev }, 112, counter, () => false), 'unchanged');
    }
    // A file gone between the walk and the read is that file's error, and the pool keeps going.
    const gone = { ...tasks[0], src: { ...tasks[0].src, path: join(dir, 'vanished.md'), rel: 'vanished.md' } };
    const rows = await pool.parse(gone, 112, counter, () => false);
    assert.ok(rows !== 'unchanged' && rows.file.error_code === 'not_found', JSON.stringify(rows));
    // Tasks dropped before they run (a cancelled ingest) are never parsed.
    await assert.rejects(
      pool.parse(tasks[1], 112, counter, () => true),
      /dropped/,
    );
  } finally {
    await pool.close();
    await cleanup();
  }
});

test('stopIdle stops idle workers at once, leaves busy ones, and the next parse starts them again', async () => {
  const { dir, cleanup } = await tempDir('parse-pool-stop');
  const pool = new ParsePool(1);
  try {
    const [task] = await writeFixtures(dir);
    const counter = { spec: { key: '', model: false } };
    const parsing = pool.parse(task, 112, counter, () => false);
    assert.equal(pool.stopIdle(), false, 'a worker with a file to parse is left to it');
    assert.ok((await parsing) !== 'unchanged');
    assert.equal(pool.threads, 1, 'control: an idle worker stays until its idle stop');
    assert.equal(pool.stopIdle(), true);
    assert.equal(pool.threads, 0);
    const again = await pool.parse(task, 112, counter, () => false);
    assert.deepEqual(comparable(again), comparable(await parsing));
  } finally {
    await pool.close();
    await cleanup();
  }
});

test(
  'the unigram tokenizer agrees with transformers.js on every word: token count and unknown pieces',
  { timeout: 300_000 },
  async () => {
    const { dir, cleanup } = await tempDir('unigram');
    const e = await createEmbedder({ model: 'cairn/use-lite', dataDir: dir, threads: 1 });
    try {
      const modelDir = join(dir, 'models', 'cairn', 'use-lite');
      const json = async (name: string) => JSON.parse(await readFile(join(modelDir, name), 'utf8')) as unknown;
      const fast = unigramTokenizer(await json('tokenizer.json'), await json('tokenizer_config.json'));
      assert.ok(fast, 'the built-in tokenizer is one the fast counter reproduces');
      const tokenizer = await AutoTokenizer.from_pretrained(modelDir, { local_files_only: true });
      const words = new Set(
        [README_MD, GUIDE_MD, INVOICE_TS, GEO_PY, LIB_RS].flatMap((t) => t.split(/\s+/)).filter(Boolean),
      );
      // Unknown characters (fused runs), compatibility forms NFKC rewrites (some into spaces), pieces
      // of the vocabulary's control tokens, astral characters.
      for (const w of [
        '<unk>',
        '<s>x</s>',
        '\u2581',
        '¨',
        'x¨y',
        'ﬁnance',
        '½™',
        '😀😀a',
        '中文日本語',
        '\u0301e',
        'a\u200bb',
        'wordy'.repeat(40),
        // Longer than the arrays the tokenizer keeps: tokenized in its own, and the next word in the kept ones.
        'x9é'.repeat(2000),
        'after',
      ])
        words.add(w);
      const rand = seeded(7);
      const chars = 'aZ09_-.,;:()[]{}<>/\\\'"`~!@#$%^&*+=|?é©¨ﬁ½™中文😀\u0301\u200b\u00ad▁';
      for (let k = 0; k < 3000; k++) {
        let w = '';
        for (let j = 0; j < 1 + (k % 12); j++) w += [...chars][rand.int([...chars].length)];
        words.add(w);
      }
      const unkId = (tokenizer as unknown as { unk_token_id: number }).unk_token_id;
      assert.equal(typeof unkId, 'number');
      let unknown = 0;
      for (const w of words) {
        const ids = tokenizer.encode(w, { add_special_tokens: false });
        assert.equal(fast.count(w), ids.length, JSON.stringify(w));
        assert.equal(fast.hasUnknown(w), ids.includes(unkId), `unknown piece in ${JSON.stringify(w)}`);
        if (ids.includes(unkId)) unknown++;
      }
      // Both answers occur, so the unknown check can fail either way.
      assert.ok(unknown > 0 && unknown < words.size, `${unknown} of ${words.size} words hold an unknown piece`);
      // A tokenizer it cannot reproduce exactly is refused, not approximated.
      const other = {
        ...((await json('tokenizer.json')) as Record<string, unknown>),
        pre_tokenizer: { type: 'Whitespace' },
      };
      assert.equal(unigramTokenizer(other), null);
    } finally {
      await e.close();
      await cleanup();
    }
  },
);
