import { readFile, stat } from 'node:fs/promises';
import type { ReadRequest, ReadResult } from '../../common/search.js';
import { CairnError } from '../errors.js';
import { numberLines } from '../search/snippet.js';
import { decodeText, docxText, pdfPages } from '../parse/index.js';
import { containedPath } from './contain.js';

const MAX_LINES = 2000;
const DEFAULT_MAX_CHARS = 20_000;
const MAX_BYTES = 20 * 1024 * 1024;

/** Lines of a file inside an indexed folder, numbered and bounded. */
export async function readLines(req: ReadRequest, folders: string[]): Promise<ReadResult> {
  const { path, folder } = await containedPath(req.path, folders);
  const st = await stat(path);
  if (!st.isFile()) throw new CairnError('invalid_argument', `${req.path} is not a file`);
  if (st.size > MAX_BYTES) throw new CairnError('invalid_argument', `${req.path} is larger than ${MAX_BYTES} bytes; read it in an editor`);
  const start = req.start_line ?? 1;
  if (!Number.isInteger(start) || start < 1) throw new CairnError('invalid_argument', 'start_line must be an integer >= 1', { details: { field: 'start_line' } });
  const end = req.end_line ?? start + 199;
  if (!Number.isInteger(end) || end < start) throw new CairnError('invalid_argument', 'end_line must be an integer >= start_line', { details: { field: 'end_line' } });
  const maxChars = req.max_chars ?? DEFAULT_MAX_CHARS;
  const { text, page } = await documentText(path, req);
  const lines = text.split('\n');
  const last = Math.min(end, start + MAX_LINES - 1, lines.length);
  const slice = lines.slice(start - 1, last).join('\n');
  const content = start > lines.length ? '' : numberLines(slice, start, maxChars);
  const truncated = last < end && last < lines.length || content.endsWith('│ …');
  return { path, folder, ...(page ? { page } : {}), start_line: start, end_line: Math.max(start, last), total_lines: lines.length, content, truncated };
}

/** The text whose lines hits refer to: a PDF page's extracted text, a DOCX's text, else the file. */
async function documentText(path: string, req: ReadRequest): Promise<{ text: string; page?: number }> {
  const bytes = await readFile(path);
  const ext = path.toLowerCase().split('.').pop();
  if (ext === 'pdf') {
    const pages = await pdfPages(bytes, req.path);
    const page = req.page ?? 1;
    if (!Number.isInteger(page) || page < 1 || page > pages.length) throw new CairnError('invalid_argument', `page must be an integer from 1 to ${pages.length}`, { details: { field: 'page' } });
    return { text: pages[page - 1], page };
  }
  if (req.page !== undefined) throw new CairnError('invalid_argument', 'page applies to PDF files only', { details: { field: 'page' } });
  if (ext === 'docx') return { text: await docxText(bytes, req.path) };
  return { text: decodeText(bytes) };
}
