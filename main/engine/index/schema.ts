import { Bool, Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from 'apache-arrow';

/** Arrow schemas of the index tables. Column names are the ones SQL filters use. */

const str = (n: string) => new Field(n, new Utf8(), false);
const int = (n: string) => new Field(n, new Int32(), false);
const num = (n: string) => new Field(n, new Float64(), false);

/** Where a row comes from: the columns every prefilter (folder, file type, date) reads. */
const origin = () => [str('folder'), str('path'), str('rel'), str('ext'), str('kind'), num('mtime')];

export function chunkSchema(): Schema {
  return new Schema([
    str('id'),
    ...origin(),
    str('language'),
    int('start_line'),
    int('end_line'),
    int('page'),
    str('text'),
    str('search_text'),
    str('symbol'),
    str('symbol_kind'),
    str('heading'),
    str('file_hash'),
    str('text_hash'),
  ]);
}

export function vectorSchema(dimensions: number): Schema {
  return new Schema([
    str('id'),
    ...origin(),
    str('text_hash'),
    // What the model was given (index/embedding-input.ts), the key vectors are reused by; '' in
    // rows from before it was kept, which are then never copied to another chunk.
    str('input_hash'),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

export function fileSchema(): Schema {
  return new Schema([
    str('path'),
    str('folder'),
    str('rel'),
    str('hash'),
    num('size'),
    num('mtime'),
    int('chunks'),
    new Field('embedded', new Bool(), false),
    str('error_code'),
    str('error_message'),
    num('indexed_at'),
    num('ctime'),
    num('ino'),
  ]);
}

/** One row per file: its whole text, for document-level BM25 (chunks are too small to score alone). */
export function docSchema(): Schema {
  return new Schema([str('id'), ...origin(), str('text')]);
}

/** The origin columns of chunks, docs and vectors (see `origin()`). */
export interface OriginColumns {
  folder: string;
  path: string;
  rel: string;
  ext: string;
  kind: string;
  mtime: number;
}

export interface DocRow extends OriginColumns {
  id: string;
  text: string;
}

export function nodeSchema(): Schema {
  return new Schema([
    str('id'),
    str('folder'),
    str('path'),
    str('kind'),
    str('name'),
    int('start_line'),
    int('end_line'),
  ]);
}

export function edgeSchema(): Schema {
  return new Schema([str('folder'), str('path'), str('kind'), str('target'), int('line')]);
}

export interface ChunkRow extends OriginColumns {
  id: string;
  language: string;
  start_line: number;
  end_line: number;
  page: number;
  text: string;
  search_text: string;
  symbol: string;
  symbol_kind: string;
  heading: string;
  file_hash: string;
  text_hash: string;
}

export interface VectorRow extends OriginColumns {
  id: string;
  text_hash: string;
  input_hash: string;
  vector: number[] | Float32Array;
}

export interface FileRow {
  path: string;
  folder: string;
  rel: string;
  hash: string;
  size: number;
  mtime: number;
  chunks: number;
  embedded: boolean;
  error_code: string;
  error_message: string;
  indexed_at: number;
  /** Change time and inode when indexed (0 in rows from before they were kept). */
  ctime: number;
  ino: number;
}

// The graph's rows are the graph's vocabulary (graph/rows.ts); these tables store them.
export type { EdgeRow, NodeRow } from '../graph/rows.js';
