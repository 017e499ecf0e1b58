// A text-only folder is indexed for full-text and graph search and gets no vectors; turning the
// switch off computes them. Status, the file list and `cairn status` say which it is.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir, indexNow } from '../helpers/engine.js';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { formatStatus } from '../../main/engine/cli/format.js';

let engine: Engine;
let plain: string;
let textOnly: string;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const t = await tempDir('textonly');
  cleanups.push(t.cleanup);
  plain = join(t.dir, 'plain');
  textOnly = join(t.dir, 'text');
  // Different text in each: a chunk whose text already has a vector reuses it, whatever the folder.
  await mkdir(plain, { recursive: true });
  await mkdir(textOnly, { recursive: true });
  await writeFile(join(plain, 'meetings.md'), '# Meetings\n\nThe weekly sync is on Tuesdays at ten.\n');
  await writeFile(
    join(textOnly, 'invoices.md'),
    '# Invoices\n\nTotals are rounded half up to the cent before tax is added.\n',
  );
  engine = await openEngine({ home: join(t.dir, 'home') });
  await engine.addFolder({ path: plain });
  await engine.addFolder({ path: textOnly, text_only: true });
  await indexNow(engine, plain, 'create');
  await indexNow(engine, textOnly, 'create');
});

after(async () => {
  await engine?.close();
  for (const c of cleanups.reverse()) await c();
});

test('a text-only folder has text and no vectors; the plain one beside it has both (the control)', async () => {
  const byPath = new Map((await engine.folders()).map((f) => [f.path, f]));
  const p = byPath.get(plain)!;
  const t = byPath.get(textOnly)!;
  assert.ok(p.chunks > 0 && p.embedded_chunks === p.chunks, 'the plain folder got its vectors');
  assert.equal(p.text_only, false);
  assert.ok(t.chunks > 0, 'text indexed');
  assert.equal(t.embedded_chunks, 0, 'no vectors computed');
  assert.equal(t.text_only, true);
  const hits = await engine.search({ query: 'rounded half up', mode: 'sparse', folders: [textOnly] });
  assert.ok(hits.hits.length > 0, 'sparse search finds its text');
  const listing = await engine.folderFiles({ path: textOnly });
  assert.equal(listing.text_only, true);
  assert.deepEqual(
    listing.items.map((e) => e.status),
    ['text_only'],
  );
  assert.equal(listing.counts.embedding, 0, 'not "waiting for vectors": none will come');
  assert.match(formatStatus(await engine.status()), /text only: no vectors are computed/);
});

test("turning text-only off computes the folder's vectors", async () => {
  const st = await engine.updateFolder({ path: textOnly, text_only: false });
  assert.equal(st.text_only, false);
  await engine.idle();
  const t = (await engine.folders()).find((f) => f.path === textOnly)!;
  assert.ok(t.chunks > 0 && t.embedded_chunks === t.chunks, `${t.embedded_chunks}/${t.chunks} with vectors`);
});
