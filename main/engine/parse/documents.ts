// mammoth and unpdf (pdf.js) load on the first PDF or DOCX: a third of a second per parse worker
// and per process, which folders of text and code never need.
import { CairnError } from '../errors.js';
import type { ChunkDraft, ParsedFile } from '../types.js';
import { defaultOverlap, packParagraphs, toUnits, type TokenBudget } from './budget.js';
import { checkDocxInflation } from './zip-limits.js';

function corrupt(rel: string, what: string, err: unknown): CairnError {
  const why = err instanceof Error ? err.message : String(err);
  return new CairnError('internal', `cannot read ${what} ${rel}: ${why}`, { remedy: 'check that the file opens; it is skipped until it changes', details: { path: rel }, cause: err });
}

/** Text of each PDF page (index 0 = page 1). Throws CairnError for a file that is not a readable PDF. */
export async function pdfPages(bytes: Uint8Array, rel: string): Promise<string[]> {
  try {
    const { extractText, getDocumentProxy } = await import('unpdf');
    // pdf.js may detach the buffer it is given: hand it a copy.
    const doc = await getDocumentProxy(new Uint8Array(bytes));
    try {
      const { text } = await extractText(doc, { mergePages: false });
      return text;
    } finally {
      // Frees pdf.js's copy of the document; the proxy itself has no destroy in this pdf.js build.
      await (doc as unknown as { loadingTask?: { destroy(): Promise<void> } }).loadingTask?.destroy();
    }
  } catch (err) {
    throw corrupt(rel, 'PDF', err);
  }
}

/** PDF: chunks per page; line numbers count the lines of that page's extracted text. */
export async function parsePdf(bytes: Uint8Array, rel: string, budget: TokenBudget): Promise<ParsedFile> {
  const pages = await pdfPages(bytes, rel);
  const chunks: ChunkDraft[] = [];
  pages.forEach((text, i) => {
    for (const w of packParagraphs(toUnits(text), budget, defaultOverlap(budget))) {
      chunks.push({ kind: 'pdf', page: i + 1, startLine: w.startLine, endLine: w.endLine, text: w.text });
    }
  });
  return { chunks, symbols: [], refs: [] };
}

/** Raw text of a DOCX (paragraphs separated by blank lines, as mammoth writes them). */
export async function docxText(bytes: Uint8Array, rel: string): Promise<string> {
  // Before mammoth sees it: mammoth inflates every entry in memory, whatever its size.
  checkDocxInflation(bytes, rel);
  try {
    const { default: mammoth } = await import('mammoth');
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return value;
  } catch (err) {
    throw corrupt(rel, 'DOCX', err);
  }
}

/** DOCX: paragraph windows; line numbers count the lines of the extracted text. */
export async function parseDocx(bytes: Uint8Array, rel: string, budget: TokenBudget): Promise<ParsedFile> {
  const text = await docxText(bytes, rel);
  const chunks: ChunkDraft[] = packParagraphs(toUnits(text.replace(/\n+$/, '')), budget, defaultOverlap(budget)).map((w) => ({ kind: 'docx', startLine: w.startLine, endLine: w.endLine, text: w.text }));
  return { chunks, symbols: [], refs: [] };
}
