import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { ChunkRow, DocRow, EdgeRow, FileRow, NodeRow } from '../index/schema.js';
import type { FileWrite } from '../index/write-rows.js';
import type { ParsedFile, SourceFile } from '../types.js';
import { splitIdentifier } from '../search/identifiers.js';
import { FileText } from '../index/analyzer.js';
import type { LatinLanguage } from '../index/text-language.js';

export function sha1(data: string | Uint8Array): string {
  return createHash('sha1').update(data).digest('hex');
}

export function extOf(rel: string): string {
  return extname(rel).slice(1).toLowerCase();
}

/** Words of the file's name and folder, so a query naming the file finds it. */
function pathWords(rel: string): string {
  const parts = rel.split('/');
  const name = basename(rel, extname(rel));
  const dir = parts.length > 1 ? parts[parts.length - 2] : '';
  return `${splitIdentifier(name.replace(/-+/g, ' '))} ${dir}`.trim();
}

/** What the full-text index sees before a chunk's text (then the text): path words, then heading or symbol. */
function searchHead(rel: string, c: { heading?: string; symbol?: string }): string {
  // A definition names its symbol twice (as written and split into words): it should outrank a
  // chunk that only mentions the name once.
  const context = [c.heading, c.symbol, c.symbol && splitIdentifier(c.symbol)].filter(Boolean).join(' ');
  return `${pathWords(rel)}\n${context}`;
}

/** One file's rows as the store writes them (index/write-rows.ts declares the shape). */
export type FileRows = FileWrite;

export function rowsFor(
  folder: string,
  src: SourceFile,
  hash: string,
  parsed: ParsedFile,
  plainText?: string,
): FileRows {
  const ext = extOf(src.rel);
  // The file's language decides for chunks too short to show their own (a heading, a list item).
  // Its body is the file's own text where it is text; for extracted formats (PDF, DOCX, HTML) the
  // chunks' text, whose small window overlaps barely move term counts.
  const body = new FileText(plainText ?? parsed.chunks.map((c) => c.text).join('\n'));
  const fileLanguage = body.language().language;
  /** Equal pieces at one place (a long line cut in equal windows) are told apart by their ordinal. */
  const seen = new Map<string, number>();
  const chunks: ChunkRow[] = parsed.chunks.map((c) => {
    const textHash = sha1(c.text);
    const place = `${c.startLine}\n${c.endLine}\n${c.page ?? 0}\n${textHash}`;
    const nth = seen.get(place) ?? 0;
    seen.set(place, nth + 1);
    return {
      // The file's content hash and mtime are part of the id: a rewritten row is always a new row,
      // never an update in place (LanceDB's full-text search loses updated rows until the next
      // optimize), and no two versions of a file share an id, whatever their size and dates.
      id: sha1(`${src.path}\n${hash}\n${src.mtimeMs}\n${place}\n${nth}`).slice(0, 32),
      folder,
      path: src.path,
      rel: src.rel,
      ext,
      kind: c.kind,
      language: c.language ?? '',
      start_line: c.startLine,
      end_line: c.endLine,
      page: c.page ?? 0,
      text: c.text,
      search_text: body.analyzeChunk(searchHead(src.rel, c), c.text, c.startLine, c.endLine, fileLanguage),
      symbol: c.symbol ?? '',
      symbol_kind: c.symbolKind ?? '',
      heading: c.heading ?? '',
      file_hash: hash,
      text_hash: textHash,
      mtime: src.mtimeMs,
    };
  });
  const nodes: NodeRow[] = parsed.symbols.map((s) => ({
    id: sha1(`${src.path}\n${s.kind}\n${s.name}\n${s.startLine}`).slice(0, 32),
    folder,
    path: src.path,
    kind: s.kind,
    name: s.name,
    start_line: s.startLine,
    end_line: s.endLine,
  }));
  const edges: EdgeRow[] = parsed.refs.map((r) => ({
    folder,
    path: src.path,
    kind: r.kind,
    target: r.target,
    line: r.line,
  }));
  return {
    file: fileRow(folder, src, hash, chunks.length, '', ''),
    doc: docRow(folder, src, hash, ext, parsed, body, fileLanguage),
    chunks,
    nodes,
    edges,
  };
}

const MAX_DOC_CHARS = 200_000;

/**
 * The whole file as one full-text document: path words, the names it defines, then its text. A
 * query's words spread over a long section still meet here, where no single small chunk has them.
 */
function docRow(
  folder: string,
  src: SourceFile,
  hash: string,
  ext: string,
  parsed: ParsedFile,
  body: FileText,
  language: LatinLanguage,
): DocRow | undefined {
  if (parsed.chunks.length === 0) return undefined;
  const names = [...new Set(parsed.symbols.filter((s) => s.kind !== 'heading').map((s) => s.name))]
    .map(splitIdentifier)
    .join(' ');
  return {
    // By content, not size and date: a same-size rewrite with the old mtime is a new row, and the
    // old one is deleted with the swap instead of answering beside the new text.
    id: sha1(`${src.path}\n${hash}\n${src.mtimeMs}`).slice(0, 32),
    folder,
    path: src.path,
    rel: src.rel,
    ext,
    kind: parsed.chunks[0].kind,
    mtime: src.mtimeMs,
    // Analysed tokens, as the chunks' search_text (see index/analyzer.ts).
    text: body.analyzeAfter(`${basename(src.rel, extname(src.rel))}\n${names}`, MAX_DOC_CHARS, language),
  };
}

export function fileRow(
  folder: string,
  src: Pick<SourceFile, 'path' | 'rel' | 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>,
  hash: string,
  chunks: number,
  errorCode: string,
  errorMessage: string,
): FileRow {
  return {
    path: src.path,
    folder,
    rel: src.rel,
    hash,
    size: src.size,
    mtime: src.mtimeMs,
    chunks,
    embedded: chunks === 0,
    error_code: errorCode,
    error_message: errorMessage,
    indexed_at: Date.now(),
    ctime: src.ctimeMs ?? 0,
    ino: src.ino ?? 0,
  };
}
