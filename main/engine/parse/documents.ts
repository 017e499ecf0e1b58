// mammoth and unpdf (pdf.js) load on the first PDF or DOCX: a third of a second per parse worker
// and per process, which folders of text and code never need.
import { CairnError } from '../errors.js';
import type { ChunkDraft, ParsedFile } from '../types.js';
import { defaultOverlap, packParagraphs, toUnits, type TokenBudget } from './budget.js';
import { checkDocxInflation } from './zip-limits.js';

function corrupt(rel: string, what: string, err: unknown): CairnError {
  const why = err instanceof Error ? err.message : String(err);
  return new CairnError('internal', `cannot read ${what} ${rel}: ${why}`, {
    remedy: 'check that the file opens; it is skipped until it changes',
    details: { path: rel },
    cause: err,
  });
}

/**
 * Most pages a PDF may have to be extracted. A PDF's pages can share one content stream, so a few
 * kilobytes on disk can declare a million pages; the largest real manuals run to a few thousand.
 */
export const MAX_PDF_PAGES = 5_000;
/** Most text a PDF may yield (all pages together), the scale of the DOCX cap: a 1,000-page book is ~3 M characters. */
export const MAX_PDF_TEXT_CHARS = 48 * 2 ** 20;

export interface PdfLimits {
  pages: number;
  chars: number;
}

function capped(rel: string, why: string, reason: string): CairnError {
  return new CairnError('invalid_argument', `${rel}: ${why}; not extracted`, {
    remedy: 'The file is skipped until it changes; split the PDF if all of it should be searchable.',
    details: { path: rel, reason },
  });
}

/**
 * Text of each PDF page (index 0 = page 1). Throws CairnError for a file that is not a readable
 * PDF, or `invalid_argument` past the page or text cap. Pages are read one at a time (pdf.js's
 * all-pages helper asks for every page at once) so the caps stop the work, not only the result.
 */
export async function pdfPages(
  bytes: Uint8Array,
  rel: string,
  limits: PdfLimits = { pages: MAX_PDF_PAGES, chars: MAX_PDF_TEXT_CHARS },
): Promise<string[]> {
  try {
    const { getDocumentProxy } = await import('unpdf');
    // pdf.js may detach the buffer it is given: hand it a copy.
    // verbosity 0 (errors only): pdf.js's warnings about damaged files ("Indexing all PDF objects")
    // went to the serve terminal; a damaged file is Cairn's to report, in its errors.
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      // numPages is the page tree's declared count; a tree that declares fewer than it holds is read only that far.
      if (doc.numPages > limits.pages) throw capped(rel, `${doc.numPages} pages (limit ${limits.pages})`, 'page cap');
      const pages: string[] = [];
      let chars = 0;
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        // As unpdf's extractText: each item's string, a newline where pdf.js saw the end of a line.
        const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
        page.cleanup();
        chars += text.length;
        if (chars > limits.chars)
          throw capped(rel, `its text passes ${limits.chars} characters by page ${n}`, 'text cap');
        pages.push(text);
      }
      return pages;
    } finally {
      // Frees pdf.js's copy of the document; the proxy itself has no destroy in this pdf.js build.
      await (doc as unknown as { loadingTask?: { destroy(): Promise<void> } }).loadingTask?.destroy();
    }
  } catch (err) {
    if (err instanceof CairnError) throw err;
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
    const { value } = await mammoth.extractRawText({
      buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
    return value;
  } catch (err) {
    throw corrupt(rel, 'DOCX', err);
  }
}

/** DOCX: paragraph windows; line numbers count the lines of the extracted text. */
export async function parseDocx(bytes: Uint8Array, rel: string, budget: TokenBudget): Promise<ParsedFile> {
  const text = await docxText(bytes, rel);
  const chunks: ChunkDraft[] = packParagraphs(toUnits(text.replace(/\n+$/, '')), budget, defaultOverlap(budget)).map(
    (w) => ({ kind: 'docx', startLine: w.startLine, endLine: w.endLine, text: w.text }),
  );
  return { chunks, symbols: [], refs: [] };
}
