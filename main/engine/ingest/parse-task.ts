import type { FileRow } from '../index/schema.js';
import { decodeText, parseFile, type TokenBudget } from '../parse/index.js';
// The file door alone: the sources index pulls in the walk, which a worker never runs.
import { accessFromSpec, type AccessSpec } from '../sources/access.js';
import type { SourceFile } from '../types.js';
import { fileRow, rowsFor, sha1, type FileRows } from './rows.js';

/** One file to read and parse: plain data, so it crosses to a parse worker as is. */
export interface ParseTask {
  folder: string;
  src: SourceFile;
  /** What the index holds for the path, to tell an unchanged file from a changed one. */
  prev?: Pick<FileRow, 'hash' | 'error_code' | 'mtime'>;
  rebuild: boolean;
  /** The folder's rules: the file is opened and checked through them (sources/access.ts), never by path alone. */
  access: AccessSpec;
}

/** Kinds whose text is the file's own bytes decoded (not extracted from PDF, DOCX or HTML). */
const PLAIN_KINDS = new Set(['text', 'markdown', 'code', 'data']);

/**
 * Reads, hashes and parses one file into its rows; any failure is that file's error row, never an
 * exception. `beforeParse` sees the bytes first (a worker learns the token counts of its words
 * there, in one round trip instead of one per word).
 */
export async function readAndParse(
  task: ParseTask,
  budget: TokenBudget,
  beforeParse?: (bytes: Buffer) => Promise<void>,
  /** Read without the thread pool (a worker thread, which blocks no one by waiting). */
  syncRead = false,
): Promise<FileRows | 'unchanged'> {
  const { folder, src, prev, rebuild } = task;
  let bytes: Buffer;
  try {
    const access = accessFromSpec(task.access);
    bytes = (syncRead ? access.readFileSync(src.path) : await access.readFile(src.path)).bytes;
  } catch (err) {
    return {
      file: fileRow(folder, src, '', 0, (err as { code?: string }).code ?? 'unreadable', (err as Error).message),
      chunks: [],
      nodes: [],
      edges: [],
    };
  }
  const hash = sha1(bytes);
  if (!rebuild && prev && prev.hash === hash && prev.error_code === '' && prev.mtime === src.mtimeMs)
    return 'unchanged';
  // Same content with a new mtime (touch, checkout) is parsed again so that every row carries the
  // new date for the modified filters; its vectors are kept, their chunk ids do not change.
  try {
    await beforeParse?.(bytes);
    const parsed = await parseFile(src, bytes, budget);
    const kind = parsed.chunks[0]?.kind;
    const plain = kind && PLAIN_KINDS.has(kind) ? decodeText(bytes) : undefined;
    return rowsFor(folder, src, hash, parsed, plain);
  } catch (err) {
    return {
      file: fileRow(folder, src, hash, 0, 'unparsable', (err as Error).message),
      chunks: [],
      nodes: [],
      edges: [],
    };
  }
}

/** Chunk windows without the model: a deliberately pessimistic count keeps chunks inside it. */
export function fallbackCount(text: string): number {
  return Math.ceil((text.match(/\w+|[^\s\w]/g)?.length ?? 0) * 1.5);
}
