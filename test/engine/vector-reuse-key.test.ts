// Vectors are reused by what the model was given (title line + text). A vectors table written
// before that key was kept has no input_hash column: opened, it gets the column empty, its rows
// keep answering for their own chunks and are never copied to another chunk, whose input is not
// known to match. Real LanceDB tables on disk; the old table is made with the old schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Float64, Schema, Utf8 } from 'apache-arrow';
import { IndexStore, vectorRowFor } from '../../main/engine/index/store.js';
import type { VectorSource } from '../../main/engine/index/tables.js';
import { tempDir } from '../helpers/engine.js';

const DIM = 4;
const NAME = 'vectors__legacy_4';

function chunk(id: string, rel: string, text: string): VectorSource {
  return {
    id,
    folder: '/f',
    path: `/f/${rel}`,
    rel,
    ext: 'txt',
    kind: 'text',
    mtime: 0,
    text_hash: 'h',
    text,
    heading: '',
    symbol: '',
  };
}

async function legacyTable(dir: string): Promise<void> {
  const str = (n: string) => new Field(n, new Utf8(), false);
  const schema = new Schema([
    str('id'),
    ...['folder', 'path', 'rel', 'ext', 'kind'].map(str),
    new Field('mtime', new Float64(), false),
    str('text_hash'),
    new Field('vector', new FixedSizeList(DIM, new Field('item', new Float32(), true)), false),
  ]);
  const db = await lancedb.connect(dir);
  const t = await db.createEmptyTable(NAME, schema);
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the old rows had no such column
  const { input_hash, ...row } = vectorRowFor(chunk('old', 'a.txt', 'same words'), [1, 0, 0, 0]);
  await t.add([row]);
  t.close();
  db.close();
}

test('an old vectors table gets the reuse key empty: its rows answer for their own chunk and are never copied', async () => {
  const { dir, cleanup } = await tempDir('reuse-key');
  try {
    await legacyTable(dir);
    const store = await IndexStore.open(dir);
    try {
      const t = await store.vectors(NAME, DIM, false);
      assert.ok(t);
      const fields = (await t.schema()).fields.map((f) => f.name);
      assert.ok(fields.includes('input_hash'), fields.join(', '));
      // Its own chunk still has its vector; a chunk of the very same title line and text does not
      // get a copy, as the old row's input is not known.
      const before = await store.passVectors(NAME);
      const have = await before.fromBefore([chunk('old', 'a.txt', 'same words'), chunk('twin', 'a.txt', 'same words')]);
      assert.deepEqual([...have].sort(), ['old']);

      // The control: a row written today carries its input, and a chunk of that input gets a copy,
      // while a chunk of equal text under another title line does not.
      await store.addVectors(NAME, [vectorRowFor(chunk('new', 'b.txt', 'other words'), [0, 1, 0, 0])]);
      const twins = [chunk('copy', 'sub/b.txt', 'other words'), chunk('renamed', 'c.txt', 'other words')];
      // A pass looks up what was there when it began: the row written since is not among it...
      assert.deepEqual([...(await before.fromBefore(twins))], []);
      before.close();
      // ...and a pass begun now finds it.
      const pass = await store.passVectors(NAME);
      const now = await pass.fromBefore(twins);
      pass.close();
      assert.deepEqual([...now].sort(), ['copy']);
      const rows = (await t.query().select(['id', 'input_hash']).toArray()) as { id: string; input_hash: string }[];
      const byId = new Map(rows.map((r) => [r.id, r.input_hash]));
      assert.equal(byId.get('old'), '');
      assert.ok(byId.get('new') && byId.get('new') === byId.get('copy'));
    } finally {
      await store.close();
    }
  } finally {
    await cleanup();
  }
});
