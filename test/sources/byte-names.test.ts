// File names that are not valid UTF-8 (a latin-1 "café" from an old archive, a Shift-JIS name from
// a camera card) are indexed, searched, read and grepped byte-exactly: each byte that is not part
// of valid UTF-8 is written `\xNN` in the path Cairn reports, and that path opens exactly that
// file, never its valid-UTF-8 look-alike beside it. Node's string paths turn such bytes into U+FFFD,
// so without this the file was recorded `not_found`. The look-alike files are the control: each
// answer must name the one file whose bytes hold the words asked for.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir, indexNow } from '../helpers/engine.js';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { eventually } from '../freshness/lib.js';

let engine: Engine;
let folder: string;
let cleanup: () => Promise<void>;

const bytesPath = (...parts: (string | Buffer)[]) =>
  Buffer.concat(parts.map((p, i) => Buffer.concat([i ? Buffer.from('/') : Buffer.alloc(0), Buffer.from(p)])));

/** name bytes → words only that file holds. */
const FILES: { name: Buffer; dir?: Buffer; words: string; shown: string }[] = [
  { name: Buffer.from('caf\xe9.md', 'latin1'), words: 'latinone pastry recipe', shown: 'caf\\xe9.md' },
  { name: Buffer.from('café.md'), words: 'utfeight espresso notes', shown: 'café.md' },
  // A name that literally holds the escape text: it must not be read as the latin-1 file.
  { name: Buffer.from('caf\\xe9.md'), words: 'literalbackslash kiosk', shown: 'caf\\x5cxe9.md' },
  {
    dir: Buffer.from('\x82\xa0photos', 'latin1'),
    name: Buffer.from('n\xf6tes.txt', 'latin1'),
    words: 'shiftjis camera card',
    shown: '\\x82\\xa0photos/n\\xf6tes.txt',
  },
  // Alone in its directory: a listing with a backslash name and no name that is not UTF-8.
  {
    dir: Buffer.from('plain'),
    name: Buffer.from('tab\\x41s.md'),
    words: 'lonebackslash ledger',
    shown: 'plain/tab\\x5cx41s.md',
  },
];

before(async () => {
  const t = await tempDir('bytenames');
  cleanup = t.cleanup;
  folder = join(t.dir, 'docs');
  await mkdir(folder, { recursive: true });
  for (const f of FILES) {
    if (f.dir) await mkdir(bytesPath(folder, f.dir), { recursive: true });
    const file = f.dir ? bytesPath(folder, f.dir, f.name) : bytesPath(folder, f.name);
    await writeFile(file, `# Note\n\nThe ${f.words} are kept here.\n`);
  }
  // The names really are on disk as raw bytes (the control for the fixture itself).
  const raw = (await readdir(Buffer.from(folder), { encoding: 'buffer' })).map((b) => b.toString('hex'));
  assert.ok(raw.includes(Buffer.from('caf\xe9.md', 'latin1').toString('hex')), 'latin-1 name written as bytes');
  engine = await openEngine({ home: join(t.dir, 'home') });
  await engine.addFolder({ path: folder, text_only: true });
  await indexNow(engine, folder, 'create');
});

after(async () => {
  await engine?.close();
  await cleanup?.();
});

test('every file is indexed under its escaped name, none is an error or not_found', async () => {
  const listing = await engine.folderFiles({ path: folder });
  const byRel = new Map(listing.items.map((e) => [e.path.slice(folder.length + 1), e.status]));
  for (const f of FILES) assert.equal(byRel.get(f.shown), 'text_only', `${f.shown}: ${JSON.stringify(listing.items)}`);
  assert.ok(
    listing.items.every((e) => !e.path.includes('\ufffd')),
    'no U+FFFD in any path',
  );
  assert.equal(listing.items.length, FILES.length);
});

test('search finds each file by its own words, under its own path', async () => {
  for (const f of FILES) {
    const res = await engine.search({ query: f.words.split(' ')[0], mode: 'sparse', folders: [folder] });
    assert.deepEqual(
      res.hits.map((h) => h.path),
      [join(folder, f.shown)],
      f.shown,
    );
  }
});

test('read of a reported path returns that file, byte-exact, and not its look-alike', async () => {
  for (const f of FILES) {
    const r = await engine.read({ path: join(folder, f.shown) });
    assert.match(r.content, new RegExp(f.words), f.shown);
    for (const other of FILES.filter((o) => o !== f)) assert.doesNotMatch(r.content, new RegExp(other.words));
    assert.equal(r.path, join(folder, f.shown));
  }
  // A name with U+FFFD where the byte was is not the file (the lossy path never opens anything).
  await assert.rejects(engine.read({ path: join(folder, 'caf\ufffd.md') }), { code: 'not_found' });
  // Nor is an escape of bytes that are UTF-8 (`\x63` is `c`): one file has one name, and the rules
  // judge the name a file is opened by. The canonical spelling beside it is the control.
  await assert.rejects(engine.read({ path: join(folder, '\\x63af\\xe9.md') }), { code: 'path_outside_folders' });
  await assert.rejects(engine.read({ path: join(folder, 'caf\\xE9.md') }), { code: 'path_outside_folders' });
  assert.match((await engine.read({ path: join(folder, 'caf\\xe9.md') })).content, /latinone/);
});

test('grep finds each file by its own words, under its own path', async () => {
  for (const f of FILES) {
    const g = await engine.grep({ pattern: f.words.split(' ')[0], folders: [folder] });
    assert.deepEqual([...new Set(g.matches.map((m) => m.path))], [join(folder, f.shown)], f.shown);
  }
});

test('under the watcher, edits, new files and deletions of such names are applied (events arrive lossy)', async () => {
  const gone = bytesPath(folder, Buffer.from('old\xe0.md', 'latin1'));
  await writeFile(gone, '# Old\n\nThe vanishingword stays until deleted.\n');
  await indexNow(engine, folder, 'update');
  await engine.startLiveUpdates();
  const e = engine;
  const hitsOf = async (q: string) =>
    (await e.search({ query: q, mode: 'sparse', folders: [folder], freshness: 'wait_for_fresh' })).hits.map(
      (h) => h.path,
    );
  assert.deepEqual(await hitsOf('vanishingword'), [join(folder, 'old\\xe0.md')], 'the control: indexed first');
  await writeFile(bytesPath(folder, FILES[0].name), '# Note\n\nThe rewrittenlatin text replaced it.\n');
  await writeFile(
    bytesPath(folder, FILES[3].dir!, Buffer.from('neu\xfc.md', 'latin1')),
    '# New\n\nA freshlatin note.\n',
  );
  await rm(gone);
  const settled = async (q: string, want: string[]) =>
    eventually(`${q} → ${want.join()}`, async () => {
      const got = await hitsOf(q);
      return JSON.stringify(got) === JSON.stringify(want) ? got : undefined;
    });
  await settled('rewrittenlatin', [join(folder, 'caf\\xe9.md')]);
  await settled('latinone', []);
  await settled('freshlatin', [join(folder, '\\x82\\xa0photos/neu\\xfc.md')]);
  await settled('vanishingword', []);
  // The look-alike with a valid name was left alone.
  assert.deepEqual(await hitsOf('utfeight'), [join(folder, 'café.md')]);
});
