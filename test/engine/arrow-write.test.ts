// Rows are written to LanceDB as Arrow columns built by index/arrow-write.ts instead of through
// LanceDB's per-cell conversion. What is stored must be exactly what LanceDB's own conversion
// stores, for every column type of the index's schemas and for hostile text; a batch that is not
// plain goes to LanceDB unconverted. Real LanceDB tables on disk, each written both ways.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as lancedb from '@lancedb/lancedb';
import { Bool, Field, Int32, Schema } from 'apache-arrow';
import { forWrite } from '../../main/engine/index/arrow-write.js';
import { chunkSchema, fileSchema, vectorSchema } from '../../main/engine/index/schema.js';
import { tempDir } from '../helpers/engine.js';

let db: lancedb.Connection;
let cleanup: () => Promise<void>;

before(async () => {
  const t = await tempDir('arrow-write');
  cleanup = t.cleanup;
  db = await lancedb.connect(t.dir);
});
after(() => cleanup?.());

const HOSTILE = [
  '',
  'plain ascii',
  'Überschwemmungsgebiete naïve café',
  'Пример 例子 مثال',
  'emoji 🧭🏔️ and a flag 🇳🇴',
  'NUL \u0000 inside',
  'lone surrogates \ud800 and \udfff',
  'line\nbreaks\r\nand\ttabs',
  'x'.repeat(70_000),
];

function chunkRows(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    folder: '/f',
    path: `/f/${i % 3}.md`,
    rel: `${i % 3}.md`,
    ext: 'md',
    kind: 'markdown',
    mtime: 1_700_000_000_000.5 + i,
    language: 'en',
    start_line: i,
    end_line: -i,
    page: 2 ** 31 - 1 - i,
    text: HOSTILE[i % HOSTILE.length],
    search_text: HOSTILE[(i + 3) % HOSTILE.length],
    symbol: '',
    symbol_kind: '',
    heading: HOSTILE[(i + 5) % HOSTILE.length],
    file_hash: 'h',
    text_hash: `t${i}`,
  }));
}

/** A vector cell (an Arrow vector) as a plain array; any other value as it is. */
function plain(v: unknown): unknown {
  const list = v as { toArray?: () => ArrayLike<number> } | null;
  return typeof list?.toArray === 'function' ? Array.from(list.toArray()) : v;
}

/** Both tables' rows, ordered by `key`, as plain values. */
async function stored(table: lancedb.Table, key: string): Promise<Record<string, unknown>[]> {
  const rows = (await table.query().toArray()) as Record<string, unknown>[];
  return rows
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)])))
    .sort((a, b) => String(a[key]).localeCompare(String(b[key])));
}

async function bothWays(name: string, schema: Schema, rows: Record<string, unknown>[], key: string) {
  const built = await db.createEmptyTable(`${name}_built`, schema);
  const lance = await db.createEmptyTable(`${name}_lance`, schema);
  const data = await forWrite(built, rows);
  assert.ok(!Array.isArray(data), 'the plain batch was not built as Arrow (the comparison would be vacuous)');
  await built.add(data);
  await lance.add(rows);
  const [a, b] = [await stored(built, key), await stored(lance, key)];
  assert.equal(a.length, rows.length);
  assert.deepEqual(a, b);
  return a;
}

test('chunk rows, hostile text included, are stored exactly as LanceDB stores them itself', async () => {
  const rows = chunkRows(40);
  const got = await bothWays('chunks', chunkSchema(), rows, 'id');
  // The control: the comparison sees content (a wrong byte in one string would show).
  const lone = got.find((r) => r.id === 'c6');
  assert.equal(lone?.text, 'lone surrogates \ufffd and \ufffd');
  assert.equal(got.find((r) => r.id === 'c8')?.text, 'x'.repeat(70_000));
});

test('file rows (booleans, doubles) and vectors are stored exactly as LanceDB stores them itself', async () => {
  const files = Array.from({ length: 19 }, (_, i) => ({
    path: `/f/${i}`,
    folder: '/f',
    rel: `${i}`,
    hash: `h${i}`,
    size: i * 1000.25,
    mtime: -1,
    chunks: i,
    embedded: i % 3 === 0,
    error_code: i % 5 === 0 ? 'unparsable' : '',
    error_message: HOSTILE[i % HOSTILE.length],
    indexed_at: Date.now() + i,
    ctime: 0,
    ino: 2 ** 40 + i,
  }));
  const got = await bothWays('files', fileSchema(), files, 'path');
  assert.deepEqual(
    [3, 4, 5].map((i) => got.find((r) => r.path === `/f/${i}`)?.embedded),
    [true, false, false],
  );
  const vectors = Array.from({ length: 10 }, (_, i) => ({
    id: `v${i}`,
    folder: '/f',
    path: `/f/${i}`,
    rel: `${i}`,
    ext: 'md',
    kind: 'markdown',
    mtime: i,
    text_hash: `t${i}`,
    input_hash: `in${i}`,
    vector: i % 2 ? [i, -i, 0.1 * i, 1e-8] : new Float32Array([i, i, i, i]),
  }));
  const v = await bothWays('vectors', vectorSchema(4), vectors, 'id');
  assert.deepEqual(v.find((r) => r.id === 'v3')?.vector, Array.from(new Float32Array([3, -3, 0.3, 1e-8])));
});

test('a batch that is not plain goes to LanceDB as the rows it was', async () => {
  const table = await db.createEmptyTable(
    'odd',
    new Schema([new Field('n', new Int32(), false), new Field('b', new Bool(), true)]),
  );
  const plain = [{ n: 1, b: true }];
  assert.ok(!Array.isArray(await forWrite(table, plain)), 'the control: a plain batch is built');
  for (const odd of [
    [{ n: 1, b: null }],
    [{ n: 1 }],
    [{ n: 2 ** 31, b: true }],
    [{ n: 1.5, b: true }],
    [{ n: '1', b: true }],
  ]) {
    const data = await forWrite(table, odd);
    assert.equal(data, odd, JSON.stringify(odd));
  }
});
