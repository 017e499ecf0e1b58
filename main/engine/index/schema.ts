import { Bool, Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from 'apache-arrow';

/** Arrow schemas of the index tables. Column names are the ones SQL filters use. */

export const CHUNK_COLUMNS = [
  'id', 'folder', 'path', 'rel', 'ext', 'kind', 'language', 'start_line', 'end_line', 'page',
  'text', 'search_text', 'symbol', 'symbol_kind', 'heading', 'file_hash', 'text_hash', 'mtime',
] as const;

export function chunkSchema(): Schema {
  const s = (n: string) => new Field(n, new Utf8(), false);
  const i = (n: string) => new Field(n, new Int32(), false);
  return new Schema([
    s('id'), s('folder'), s('path'), s('rel'), s('ext'), s('kind'), s('language'),
    i('start_line'), i('end_line'), i('page'),
    s('text'), s('search_text'), s('symbol'), s('symbol_kind'), s('heading'),
    s('file_hash'), s('text_hash'), new Field('mtime', new Float64(), false),
  ]);
}

export function vectorSchema(dimensions: number): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('folder', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('rel', new Utf8(), false),
    new Field('ext', new Utf8(), false),
    new Field('kind', new Utf8(), false),
    new Field('mtime', new Float64(), false),
    new Field('text_hash', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

export function fileSchema(): Schema {
  return new Schema([
    new Field('path', new Utf8(), false),
    new Field('folder', new Utf8(), false),
    new Field('rel', new Utf8(), false),
    new Field('hash', new Utf8(), false),
    new Field('size', new Float64(), false),
    new Field('mtime', new Float64(), false),
    new Field('chunks', new Int32(), false),
    new Field('embedded', new Bool(), false),
    new Field('error_code', new Utf8(), false),
    new Field('error_message', new Utf8(), false),
    new Field('indexed_at', new Float64(), false),
  ]);
}

/** One row per file: its whole text, for document-level BM25 (chunks are too small to score alone). */
export function docSchema(): Schema {
  const s = (n: string) => new Field(n, new Utf8(), false);
  return new Schema([s('id'), s('folder'), s('path'), s('rel'), s('ext'), s('kind'), new Field('mtime', new Float64(), false), s('text')]);
}

export interface DocRow {
  id: string;
  folder: string;
  path: string;
  rel: string;
  ext: string;
  kind: string;
  mtime: number;
  text: string;
}

export function nodeSchema(): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('folder', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('kind', new Utf8(), false),
    new Field('name', new Utf8(), false),
    new Field('start_line', new Int32(), false),
    new Field('end_line', new Int32(), false),
  ]);
}

export function edgeSchema(): Schema {
  return new Schema([
    new Field('folder', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('kind', new Utf8(), false),
    new Field('target', new Utf8(), false),
    new Field('line', new Int32(), false),
  ]);
}

export interface ChunkRow {
  id: string;
  folder: string;
  path: string;
  rel: string;
  ext: string;
  kind: string;
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
  mtime: number;
}

export interface VectorRow {
  id: string;
  folder: string;
  path: string;
  rel: string;
  ext: string;
  kind: string;
  mtime: number;
  text_hash: string;
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
}

export interface NodeRow {
  id: string;
  folder: string;
  path: string;
  kind: string;
  name: string;
  start_line: number;
  end_line: number;
}

export interface EdgeRow {
  folder: string;
  path: string;
  kind: string;
  target: string;
  line: number;
}
