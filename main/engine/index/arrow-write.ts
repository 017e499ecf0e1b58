/**
 * Rows handed to LanceDB as an Arrow table of the table's own schema, built a column at a time.
 * Given plain objects, LanceDB's JS layer infers and builds each cell through apache-arrow's
 * builders: at ~24k chunks that was the largest part of the main thread's indexing time (0.7 of
 * 3.8 s, and much of its garbage), and every vector element went through it one by one.
 * Only the plain case is built here (every value present and of its column's JS type); any other
 * batch goes to LanceDB as rows, so what it accepts, coerces or refuses is unchanged.
 */
import { createRequire } from 'node:module';
import type { Table as LanceTable } from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';
import type { Data, DataType, Field, Schema, Table } from 'apache-arrow';

// LanceDB's JS layer is CommonJS and takes a table as one only if it is an instance of its own
// apache-arrow (the CommonJS build); an import here would load the ES module build beside it.
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof Arrow;
const { makeData, RecordBatch, Struct } = arrow;

type Row = Record<string, unknown>;

/** `rows` in the form `table.add` and `mergeInsert(...).execute` take fastest. */
export async function forWrite(table: LanceTable, rows: readonly object[]): Promise<Table | Row[]> {
  const plain = rows as Row[];
  if (plain.length === 0) return plain;
  return rowsToArrow(await table.schema(), plain) ?? plain;
}

/** The rows as one record batch of `schema`, or null when a value is missing or not plain. */
function rowsToArrow(schema: Schema, rows: readonly Row[]): Table | null {
  const children: Data[] = [];
  for (const field of schema.fields) {
    const data = column(field, rows);
    if (!data) return null;
    children.push(data);
  }
  const struct = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new arrow.Table([new RecordBatch(schema, struct)]);
}

function column(field: Field, rows: readonly Row[]): Data | null {
  const type = field.type as DataType;
  const name = field.name;
  const n = rows.length;
  if (arrow.DataType.isUtf8(type)) return utf8(type, name, rows);
  if (arrow.DataType.isInt(type) && type.bitWidth === 32 && type.isSigned)
    return numbers(type, name, rows, new Int32Array(n), (v) => Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31);
  if (arrow.DataType.isFloat(type) && type.precision === 2) return numbers(type, name, rows, new Float64Array(n));
  if (arrow.DataType.isFloat(type) && type.precision === 1) return numbers(type, name, rows, new Float32Array(n));
  if (arrow.DataType.isBool(type)) {
    const bits = new Uint8Array((n + 7) >> 3);
    for (let i = 0; i < n; i++) {
      const v = rows[i][name];
      if (typeof v !== 'boolean') return null;
      if (v) bits[i >> 3] |= 1 << (i & 7);
    }
    return makeData({ type, length: n, nullCount: 0, data: bits });
  }
  if (arrow.DataType.isFixedSizeList(type)) return vectors(type, name, rows);
  return null;
}

function utf8(type: DataType, name: string, rows: readonly Row[]): Data | null {
  const n = rows.length;
  const offsets = new Int32Array(n + 1);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const v = rows[i][name];
    if (typeof v !== 'string') return null;
    bytes += Buffer.byteLength(v, 'utf8');
    // Past 2 GiB the 32-bit offsets overflow: LanceDB's own path says what it makes of that.
    if (bytes > 0x7fffffff) return null;
    offsets[i + 1] = bytes;
  }
  const data = new Uint8Array(bytes);
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // As TextEncoder (apache-arrow's builder) does: a lone surrogate becomes U+FFFD.
  for (let i = 0; i < n; i++) buf.write(rows[i][name] as string, offsets[i], 'utf8');
  return makeData({ type: type as never, length: n, nullCount: 0, valueOffsets: offsets, data });
}

function numbers(
  type: DataType,
  name: string,
  rows: readonly Row[],
  out: Int32Array | Float64Array | Float32Array,
  admits: (v: number) => boolean = () => true,
): Data | null {
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i][name];
    if (typeof v !== 'number' || !admits(v)) return null;
    out[i] = v;
  }
  return makeData({ type: type as never, length: rows.length, nullCount: 0, data: out });
}

/** A vector column: a fixed-size list of float32, each row's value an array of exactly that size. */
function vectors(type: DataType, name: string, rows: readonly Row[]): Data | null {
  const list = type as DataType & { listSize: number; children: Field[] };
  const item = list.children[0]?.type as DataType | undefined;
  if (!item || !arrow.DataType.isFloat(item) || item.precision !== 1) return null;
  const size = list.listSize;
  const flat = new Float32Array(rows.length * size);
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i][name];
    if (!(Array.isArray(v) || v instanceof Float32Array) || v.length !== size) return null;
    flat.set(v, i * size);
  }
  const child = makeData({ type: item as never, length: flat.length, nullCount: 0, data: flat });
  return makeData({ type: list as never, length: rows.length, nullCount: 0, child });
}
