import type { ChunkDraft, ParsedFile, RefDraft, SymbolDef } from '../types.js';
import { defaultOverlap, isBlank, packParagraphs, toUnits, type TokenBudget, type Unit } from './budget.js';

interface Section {
  /** `Install > Linux`; '' before the first heading. */
  path: string;
  title: string;
  level: number;
  units: Unit[];
}

const ATX = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$|^ {0,3}(#{1,6})[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Setext underline: `Title` over `=====` (level 1) or `-----` (level 2). */
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

/** Lines of YAML/TOML front matter at the top (metadata, not prose). */
function frontMatterEnd(lines: Unit[]): number {
  const first = lines[0]?.text.trim();
  if (first !== '---' && first !== '+++') return 0;
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i].text.trim();
    if (t === first || (first === '---' && t === '...')) return i + 1;
  }
  return 0;
}

/** Inline text of a heading without emphasis/link markup, so paths read naturally. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .trim();
}

const LINK_PATTERNS = [
  /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g, // [text](target "title")
  /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g, // [id]: target
  /<((?:https?|mailto):[^>\s]+)>/g, // <https://...>
  /\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g, // [[Wiki Page]]
];

function linksOf(u: Unit): RefDraft[] {
  const refs: RefDraft[] = [];
  for (const re of LINK_PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(u.text); m; m = re.exec(u.text)) {
      const target = m[1].trim();
      // A bare `#anchor` points into the same file: nothing for the graph.
      if (target && !target.startsWith('#')) refs.push({ kind: 'link', target, line: u.line });
    }
  }
  return refs;
}

function splitSections(units: Unit[], refs: RefDraft[]): Section[] {
  const sections: Section[] = [{ path: '', title: '', level: 0, units: [] }];
  const stack: Array<{ level: number; title: string }> = [];
  let fence: string | null = null;
  for (const u of units) {
    const f = FENCE.exec(u.text);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && u.text.trim() === f[1]) fence = null;
      sections[sections.length - 1].units.push(u);
      continue;
    }
    if (f) fence = f[1];
    const h = f ? null : ATX.exec(u.text);
    const current = sections[sections.length - 1].units;
    const prev = current[current.length - 1];
    const beforePrev = current[current.length - 2];
    // Only a one-line paragraph right above makes `---` an underline rather than a rule.
    const setext =
      !f &&
      !h &&
      SETEXT.test(u.text) &&
      prev &&
      !isBlank(prev) &&
      !ATX.test(prev.text) &&
      (!beforePrev || isBlank(beforePrev) || current.length === 1);
    const open = (level: number, rawTitle: string, units: Unit[]) => {
      const title = headingText(rawTitle);
      while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
      stack.push({ level, title });
      sections.push({
        path: stack
          .map((s) => s.title)
          .filter(Boolean)
          .join(' > '),
        title,
        level,
        units,
      });
    };
    if (h) {
      open((h[1] ?? h[3]).length, h[2] ?? '', [u]);
    } else if (setext) {
      current.pop();
      open(u.text.trim()[0] === '=' ? 1 : 2, prev.text, [prev, u]);
    } else {
      sections[sections.length - 1].units.push(u);
    }
    if (!f) refs.push(...linksOf(u));
  }
  return sections.filter((s) => s.units.length > 0 || s.level > 0);
}

/**
 * Markdown: one chunk per heading section (long ones cut at paragraphs), each carrying its heading
 * path. A heading with no body of its own (`# Install` right before `## Linux`) joins the next
 * section so it is never a chunk of one line.
 */
export function parseMarkdown(text: string, budget: TokenBudget): ParsedFile {
  const all = toUnits(text);
  const body = all.slice(frontMatterEnd(all));
  const refs: RefDraft[] = [];
  const sections = splitSections(body, refs);
  const symbols: SymbolDef[] = [];
  const chunks: ChunkDraft[] = [];
  let carry: Unit[] = [];
  sections.forEach((s, i) => {
    const content = s.units.filter((u) => !isBlank(u));
    if (s.title)
      symbols.push({
        name: s.title,
        kind: 'heading',
        startLine: s.units[0].line,
        endLine: s.units[s.units.length - 1].line,
      });
    const next = sections[i + 1];
    const headingOnly = s.level > 0 && content.length <= 1;
    if (headingOnly && next && next.level > s.level) {
      carry = [...carry, ...s.units];
      return;
    }
    const units = [...carry, ...s.units];
    carry = [];
    for (const w of packParagraphs(units, budget, defaultOverlap(budget))) {
      chunks.push({
        kind: 'markdown',
        startLine: w.startLine,
        endLine: w.endLine,
        text: w.text,
        ...(s.path ? { heading: s.path } : {}),
      });
    }
  });
  return { chunks, symbols, refs };
}
