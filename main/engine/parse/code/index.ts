import type { ChunkDraft, ParsedFile } from '../../types.js';
import { defaultOverlap, packUnits, toUnits, type TokenBudget } from '../budget.js';
import type { Grammar } from '../languages.js';
import { chunkCode } from './chunk-code.js';
import { extract } from './extract.js';
import type { LangSpec } from './spec.js';
import { BASH, JS, PHP, PYTHON, RUBY } from './specs-scripting.js';
import { CPP, CSHARP, JAVA } from './specs-c-family.js';
import { GO, RUST } from './specs-systems.js';
import { parserFor } from './treesitter.js';

const SPECS: Record<Grammar, LangSpec> = {
  typescript: JS,
  tsx: JS,
  javascript: JS,
  python: PYTHON,
  go: GO,
  rust: RUST,
  java: JAVA,
  cpp: CPP,
  'c-sharp': CSHARP,
  ruby: RUBY,
  php: PHP,
  bash: BASH,
};

/**
 * Beyond this size a file is almost always generated (bundles, parsers, data tables): its syntax
 * tree would cost far more than its symbols are worth, so it gets line windows.
 */
export const MAX_SYNTAX_TREE_CHARS = 1_500_000;

/** Code without a grammar (or whose parse failed): overlapping line windows. */
export function lineWindows(text: string, budget: TokenBudget, language: string): ChunkDraft[] {
  return packUnits(toUnits(text), budget, defaultOverlap(budget)).map((w) => ({
    kind: 'code',
    language,
    startLine: w.startLine,
    endLine: w.endLine,
    text: w.text,
  }));
}

/** Source code: chunks at function/class/method boundaries, plus symbols and graph refs. */
export async function parseCode(
  text: string,
  budget: TokenBudget,
  language: string,
  grammar: Grammar | undefined,
): Promise<ParsedFile> {
  if (!grammar || text.length > MAX_SYNTAX_TREE_CHARS)
    return { chunks: lineWindows(text, budget, language), symbols: [], refs: [] };
  let tree;
  try {
    tree = (await parserFor(grammar)).parse(text);
  } catch {
    tree = null;
  }
  // tree-sitter recovers from syntax errors; only a failed parse falls back to plain windows.
  if (!tree) return { chunks: lineWindows(text, budget, language), symbols: [], refs: [] };
  try {
    const { defs, symbols, refs } = extract(tree.rootNode, SPECS[grammar]);
    return { chunks: chunkCode(toUnits(text), defs, budget, language), symbols, refs };
  } finally {
    // The tree lives in wasm memory, which no garbage collector frees.
    tree.delete();
  }
}
