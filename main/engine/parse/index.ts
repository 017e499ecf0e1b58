import type { ParsedFile } from '../types.js';
import type { TokenBudget } from './budget.js';
import { parseCode } from './code/index.js';
import { decodeText } from './decode.js';
import { parseDocx, parsePdf } from './documents.js';
import { fileTypeOf } from './languages.js';
import { parseMarkdown } from './markdown.js';
import { parseText } from './text.js';

/**
 * Bumped whenever chunk boundaries or text change for the same input, so the indexer knows to
 * re-chunk files it indexed with an older version.
 */
export const CHUNKER_VERSION = 3;

export { kindOf, languageOf } from './languages.js';
export type { TokenBudget } from './budget.js';
export { pdfPages, docxText } from './documents.js';
export { decodeText } from './decode.js';

/**
 * Turns a file's bytes into chunks that each fit the embedding window, plus the symbols it defines
 * and the refs it makes. Code that fails to parse falls back to line windows; a PDF or DOCX that
 * cannot be read at all throws a CairnError naming the file.
 */
export async function parseFile(
  file: { path: string; rel: string },
  bytes: Buffer,
  budget: TokenBudget,
): Promise<ParsedFile> {
  if (!(budget.maxTokens >= 1)) throw new RangeError(`maxTokens must be >= 1, got ${budget.maxTokens}`);
  const type = fileTypeOf(file.rel || file.path);
  switch (type.kind) {
    case 'pdf':
      return parsePdf(bytes, file.rel, budget);
    case 'docx':
      return parseDocx(bytes, file.rel, budget);
    case 'html':
      // htmlparser2 loads on the first page, as the document readers do (see documents.ts).
      return (await import('./html.js')).parseHtml(decodeText(bytes), budget);
    case 'markdown':
      return parseMarkdown(decodeText(bytes), budget);
    case 'code':
      return parseCode(decodeText(bytes), budget, type.language ?? 'unknown', type.grammar);
    case 'data':
      return parseText(decodeText(bytes), budget, 'data', type.language);
    case 'text':
      return parseText(decodeText(bytes), budget);
  }
}
