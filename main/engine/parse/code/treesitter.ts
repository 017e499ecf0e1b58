import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import type { Grammar } from '../languages.js';

const require = createRequire(import.meta.url);

let ready: Promise<void> | null = null;
const languages = new Map<Grammar, Promise<Language>>();

/** web-tree-sitter's runtime is initialised once per process; later calls share the promise. */
function init(): Promise<void> {
  ready ??= Parser.init({ locateFile: () => require.resolve('web-tree-sitter/web-tree-sitter.wasm') });
  return ready;
}

function grammarPath(grammar: Grammar): string {
  return join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm', `tree-sitter-${grammar}.wasm`);
}

/** Grammars load on first use (each is a few hundred KB of wasm) and stay cached. */
export function loadLanguage(grammar: Grammar): Promise<Language> {
  let p = languages.get(grammar);
  if (!p) {
    p = init().then(() => Language.load(grammarPath(grammar)));
    // A failed load is not cached, so a transient error does not disable a language for good.
    p.catch(() => languages.delete(grammar));
    languages.set(grammar, p);
  }
  return p;
}

const parsers = new Map<Grammar, Parser>();

/** A parser per grammar, reused: parsing is synchronous, so one at a time is all we ever need. */
export async function parserFor(grammar: Grammar): Promise<Parser> {
  const lang = await loadLanguage(grammar);
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(lang);
    parsers.set(grammar, parser);
  }
  return parser;
}
