// The fixture index built once per run and copied per suite: each copy is a whole index of its
// own, at its own path, independent of every other copy. The real engine and built-in model.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixture, type Fixture } from '../mcp/fixtures.js';
import { openEngine } from '../../main/engine/engine.js';
import { SEARCH_MODES } from '../../main/common/search.js';

let a: Fixture;
let b: Fixture;
/** Indexed for itself, the way every suite did before (an empty `before` opts out of the copy). */
let fresh: Fixture;

before(async () => {
  a = await startFixture();
  b = await startFixture();
  fresh = await startFixture({}, { before: {} });
});

after(async () => {
  for (const fx of [a, b, fresh]) await fx?.close();
});

test('two copies live at their own paths, each fresh and indexed', async () => {
  assert.notEqual(a.root, b.root);
  for (const fx of [a, b]) {
    const [folder] = await fx.engine.folders();
    assert.equal(folder.path, fx.data);
    assert.equal(folder.state, 'fresh');
    assert.equal(folder.freshness.vector_coverage, 1);
    assert.ok(folder.chunks >= 3, `chunks ${folder.chunks}`);
    const config = await readFile(join(fx.root, 'home', 'config.json'), 'utf8');
    assert.ok(config.includes(fx.data), 'config.json names the copy');
    assert.equal(await readlink(join(fx.data, 'link-out.txt')), join(fx.root, 'outside.txt'));
  }
});

const QUERIES = ['exponential backoff retries', 'lighthouse budget', 'UploadQueue drain', 'print the secret'];

/** A search's hits as they would read in any copy: folder-relative path, lines, score. */
async function ranked(fx: Fixture, query: string, mode: (typeof SEARCH_MODES)[number]): Promise<string[]> {
  const res = await fx.engine.search({ query, mode, top_k: 10 });
  for (const h of res.hits) assert.ok(h.path.startsWith(fx.data + '/'), `${mode}: ${h.path} is outside ${fx.data}`);
  return res.hits.map((h) => `${h.path.slice(fx.data.length)}:${h.start_line}-${h.end_line} ${h.score.toFixed(6)}`);
}

test('every search mode ranks a copy exactly as an index built for itself, with paths inside the copy', async () => {
  for (const mode of SEARCH_MODES) {
    for (const query of QUERIES) {
      const want = await ranked(fresh, query, mode);
      assert.ok(want.length > 0, `${mode} "${query}": no hit in the fresh index`);
      assert.deepEqual(await ranked(a, query, mode), want, `${mode} "${query}"`);
      assert.deepEqual(await ranked(b, query, mode), want, `${mode} "${query}"`);
    }
  }
  for (const fx of [a, b]) {
    const read = await fx.engine.read({ path: join(fx.data, 'notes/budget.md') });
    assert.match(JSON.stringify(read), /lighthouse project/);
  }
});

test('a change to one copy reaches its index and no other', async () => {
  await writeFile(join(a.data, 'notes/walrus.md'), '# Walrus\n\nThe walrus colony census runs every spring.\n');
  await a.engine.indexFolder(a.data, 'update');
  await a.engine.idle();
  const inA = await a.engine.search({ query: 'walrus colony census', mode: 'sparse', top_k: 5 });
  assert.equal(inA.hits[0]?.path, join(a.data, 'notes/walrus.md'));
  const inB = await b.engine.search({ query: 'walrus colony census', mode: 'sparse', top_k: 5 });
  assert.ok(
    inB.hits.every((h) => !h.path.includes('walrus')),
    JSON.stringify(inB.hits.map((h) => h.path)),
  );
});

test('control: a plain copy of an index still answers with the paths it was built at', async () => {
  // Why the copy rewrites paths: without it, hits point into the folder the index was built from.
  const root = await mkdtemp(join(tmpdir(), 'cairn-plain-copy-'));
  try {
    await cp(join(b.root, 'home'), join(root, 'home'), { recursive: true });
    await rm(join(root, 'home', 'engine.lock'), { force: true });
    const engine = await openEngine({ home: join(root, 'home'), lock: false });
    try {
      const res = await engine.search({ query: 'exponential backoff retries', mode: 'sparse', top_k: 5 });
      assert.ok(res.hits.length > 0);
      assert.ok(
        res.hits.every((h) => h.path.startsWith(b.data + '/')),
        'a plain copy keeps the old paths',
      );
    } finally {
      await engine.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
