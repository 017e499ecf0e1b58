import { Parser } from 'htmlparser2';
import type { ChunkDraft, ParsedFile, RefDraft, SymbolDef } from '../types.js';
import { defaultOverlap, packParagraphs, type TokenBudget, type Unit } from './budget.js';

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'head']);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'main',
  'nav',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'tr',
  'table',
  'thead',
  'tbody',
  'pre',
  'blockquote',
  'figure',
  'figcaption',
  'br',
  'hr',
  'title',
  'form',
  'fieldset',
  'details',
  'summary',
  'body',
  'html',
  'td',
  'th',
  'caption',
  'address',
]);

/** Offsets of line starts, for mapping a parser offset to a 1-based source line. */
function lineStarts(src: string): number[] {
  const starts = [0];
  for (let i = src.indexOf('\n'); i !== -1; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Visible text of an HTML page as units that keep the source line each piece of text came from. */
export function htmlUnits(src: string): { units: Unit[]; refs: RefDraft[]; symbols: SymbolDef[] } {
  const starts = lineStarts(src);
  const units: Unit[] = [];
  const refs: RefDraft[] = [];
  const symbols: SymbolDef[] = [];
  let hidden = 0;
  let title = false;
  let cur: Unit | null = null;
  let heading: { line: number; text: string } | null = null;
  const breakLine = (line: number) => {
    if (cur && cur.text.trim()) units.push({ line: cur.line, text: cur.text.trim() });
    cur = null;
    if (units.length && units[units.length - 1].text !== '') units.push({ line, text: '' });
  };
  const parser: Parser = new Parser(
    {
      onopentag(name, attribs) {
        const line = lineAt(starts, parser.startIndex);
        if (name === 'title') title = true;
        else if (HIDDEN.has(name)) hidden++;
        if (BLOCK.has(name)) breakLine(line);
        if (name === 'a' && attribs.href && !attribs.href.startsWith('#') && !/^javascript:/i.test(attribs.href))
          refs.push({ kind: 'link', target: attribs.href, line });
        if (/^h[1-6]$/.test(name)) heading = { line, text: '' };
      },
      ontext(text) {
        if (hidden > 0 && !title) return;
        let offset = parser.startIndex;
        // One unit per source line, so every chunk line points back at where the text is.
        for (const piece of text.split('\n')) {
          const clean = piece.replace(/\s+/g, ' ');
          const line = lineAt(starts, offset);
          if (clean.trim()) {
            if (cur && cur.line !== line) breakLineSoft();
            cur = cur ? { line: cur.line, text: cur.text + clean } : { line, text: clean.trimStart() };
            if (heading) heading.text += clean;
          }
          offset += piece.length + 1;
        }
      },
      onclosetag(name) {
        const line = lineAt(starts, parser.endIndex);
        if (name === 'title') title = false;
        else if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (/^h[1-6]$/.test(name) && heading) {
          const h: { line: number; text: string } = heading;
          if (h.text.trim()) symbols.push({ name: h.text.trim(), kind: 'heading', startLine: h.line, endLine: line });
          heading = null;
        }
        if (BLOCK.has(name)) breakLine(line);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  function breakLineSoft() {
    if (cur && cur.text.trim()) units.push({ line: cur.line, text: cur.text.trim() });
    cur = null;
  }
  parser.end(src);
  breakLineSoft();
  return { units, refs, symbols };
}

export function parseHtml(src: string, budget: TokenBudget): ParsedFile {
  const { units, refs, symbols } = htmlUnits(src);
  // A chunk is labelled with the last heading at or above its first line (pages rarely nest cleanly).
  const headingAt = (line: number) => [...symbols].reverse().find((s) => s.startLine <= line)?.name;
  const chunks: ChunkDraft[] = packParagraphs(units, budget, defaultOverlap(budget)).map((w) => {
    const heading = headingAt(w.startLine);
    return { kind: 'html', startLine: w.startLine, endLine: w.endLine, text: w.text, ...(heading ? { heading } : {}) };
  });
  return { chunks, symbols, refs };
}
