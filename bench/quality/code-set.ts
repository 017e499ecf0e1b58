/**
 * A CodeSearchNet-style code set, built reproducibly from real source shipped in the project's
 * node_modules (never lodash or the Python standard library, which are kept for independent
 * checks): Python from gyp (node-gyp/gyp/pylib/gyp), JavaScript from protobufjs/src, picomatch/lib,
 * mammoth/lib and ignore. For each documented function: the docstring's (JSDoc's) first sentence is
 * a query, the docstring is removed from the indexed copy, and the answer is the function's line
 * range in that copy. The function's name (identifier query) and its split words (split-word
 * query) are queries too, for names defined once in the whole set.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export type CodeQueryKind = 'docstring' | 'identifier' | 'split';

export interface CodeFile {
  /** Path inside the set (`python/gyp/common.py`). */
  rel: string;
  text: string;
  lang: 'python' | 'javascript';
}

export interface CodeQuery {
  id: string;
  kind: CodeQueryKind;
  lang: 'python' | 'javascript';
  text: string;
  rel: string;
  startLine: number;
  endLine: number;
}

const SOURCES: { dir: string; lang: 'python' | 'javascript'; prefix: string }[] = [
  { dir: 'node-gyp/gyp/pylib/gyp', lang: 'python', prefix: 'python/gyp' },
  { dir: 'protobufjs/src', lang: 'javascript', prefix: 'javascript/protobufjs' },
  { dir: 'picomatch/lib', lang: 'javascript', prefix: 'javascript/picomatch' },
  { dir: 'mammoth/lib', lang: 'javascript', prefix: 'javascript/mammoth' },
  { dir: 'ignore', lang: 'javascript', prefix: 'javascript/ignore' },
];

function walk(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!/^(test|tests|node_modules|dist)$/.test(e.name)) out.push(...walk(p, ext));
    } else if (e.name.endsWith(ext) && !/(_test|\.test|\.min)\./.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The first sentence of a docstring, without markup; null when it is too short to be a query. */
export function firstSentence(doc: string): string | null {
  const lines = doc.split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim());
  const body: string[] = [];
  for (const l of lines) {
    if (l.startsWith('@') || (l === '' && body.length > 0)) break;
    if (l !== '') body.push(l);
  }
  const text = body
    .join(' ')
    .replace(/\{@link\s+([^}]+)\}/g, '$1')
    .replace(/[`*]/g, '');
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  const s = (m ? m[1] : text).trim();
  return s.split(/\s+/).length >= 3 ? s : null;
}

interface Found {
  name: string;
  doc: string;
  /** 0-based lines of the docstring, removed from the indexed copy. */
  docLines: [number, number];
  /** 0-based first and last line of the function in the original. */
  start: number;
  end: number;
}

function pythonFunctions(lines: string[]): Found[] {
  const out: Found[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)def\s+([A-Za-z_]\w*)\s*\(/.exec(lines[i]);
    if (!m) continue;
    const indent = m[1].length;
    let j = i;
    while (j < lines.length && !/\)\s*(->[^:]*)?:\s*(#.*)?$/.test(lines[j])) j++;
    const d = j + 1;
    if (d >= lines.length) continue;
    const q = /^\s*[rRuU]?("""|''')/.exec(lines[d]);
    if (!q) continue;
    const quote = q[1];
    let e = d;
    const rest = lines[d].slice(lines[d].indexOf(quote) + 3);
    if (!rest.includes(quote)) {
      e = d + 1;
      while (e < lines.length && !lines[e].includes(quote)) e++;
    }
    let end = e;
    for (let k = e + 1; k < lines.length; k++) {
      if (lines[k].trim() === '') continue;
      if (lines[k].length - lines[k].trimStart().length <= indent) break;
      end = k;
    }
    const doc = lines
      .slice(d, e + 1)
      .join('\n')
      .replace(/[rRuU]?("""|''')/g, '');
    out.push({ name: m[2], doc, docLines: [d, e], start: i, end });
  }
  return out;
}

const JS_DEF = [
  /^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/,
  /^\s*(?:[\w$.]+\.)?([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?function\b/,
  /^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>)/,
  /^\s*([A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?function\b/,
  /^\s*(?:static\s+|async\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{/,
];

/** The last line of a brace-delimited body starting at or after `from` (strings and comments skipped roughly). */
function braceEnd(lines: string[], from: number): number {
  let depth = 0;
  let opened = false;
  for (let i = from; i < lines.length; i++) {
    const code = lines[i]
      .replace(/\/\/.*$/, '')
      .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""')
      .replace(/\/(?![*/])(?:\\.|[^/\n])+\/[gimsuy]*/g, '""');
    for (const ch of code) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) return i;
  }
  return -1;
}

function jsFunctions(lines: string[]): Found[] {
  const out: Found[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\/\*\*/.test(lines[i])) continue;
    let e = i;
    while (e < lines.length && !lines[e].includes('*/')) e++;
    let d = e + 1;
    while (d < lines.length && lines[d].trim() === '') d++;
    if (d >= lines.length) break;
    const name = JS_DEF.map((re) => re.exec(lines[d])?.[1]).find(
      (n) => n && !['if', 'for', 'while', 'switch', 'catch', 'function', 'return'].includes(n),
    );
    if (!name) continue;
    const end = braceEnd(lines, d);
    if (end < d || end - d > 300) continue;
    out.push({
      name,
      doc: lines
        .slice(i, e + 1)
        .join('\n')
        .replace(/^\s*\/\*\*|\*\/\s*$/g, ''),
      docLines: [i, e],
      start: d,
      end,
    });
    i = e;
  }
  return out;
}

/** Removes the given 0-based line ranges; returns the text and a map from old to new line index. */
function withoutLines(lines: string[], ranges: [number, number][]): { text: string; map: number[] } {
  const drop = new Set<number>();
  for (const [a, b] of ranges) for (let k = a; k <= b; k++) drop.add(k);
  const map: number[] = [];
  const kept: string[] = [];
  lines.forEach((l, i) => {
    map[i] = kept.length;
    if (!drop.has(i)) kept.push(l);
  });
  return { text: kept.join('\n'), map };
}

/** The set, or null when none of the source packages is installed. */
export function buildCodeSet(nodeModules: string): { files: CodeFile[]; queries: CodeQuery[] } | null {
  const files: CodeFile[] = [];
  const found: { rel: string; lang: 'python' | 'javascript'; f: Found; start: number; end: number }[] = [];
  for (const src of SOURCES) {
    const dir = join(nodeModules, src.dir);
    if (!existsSync(dir)) continue;
    for (const path of walk(dir, src.lang === 'python' ? '.py' : '.js')) {
      const rel = `${src.prefix}/${relative(dir, path)}`;
      const lines = readFileSync(path, 'utf8').split('\n');
      const fns = src.lang === 'python' ? pythonFunctions(lines) : jsFunctions(lines);
      const { text, map } = withoutLines(
        lines,
        fns.map((f) => f.docLines),
      );
      files.push({ rel, text, lang: src.lang });
      for (const f of fns) found.push({ rel, lang: src.lang, f, start: map[f.start] + 1, end: map[f.end] + 1 });
    }
  }
  if (files.length === 0) return null;
  // An identifier query has one right answer only if the name is defined once in the whole set
  // (documented or not, any case): `uint32` defined by both Reader and Writer is ambiguous.
  const nameCount = new Map<string, number>();
  const defRe =
    /\bdef\s+([A-Za-z_]\w*)\s*\(|\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|\.([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?function\b|^\s*(?:static\s+|async\s+)*([A-Za-z_$][\w$]*)\s*(?:\([^)]*\)\s*\{|:\s*(?:async\s+)?function\b)/gm;
  for (const f of files)
    for (const m of f.text.matchAll(defRe)) {
      const n = (m[1] ?? m[2] ?? m[3] ?? m[4]).toLowerCase();
      nameCount.set(n, (nameCount.get(n) ?? 0) + 1);
    }
  for (const x of found) if (!nameCount.has(x.f.name.toLowerCase())) nameCount.set(x.f.name.toLowerCase(), 1);
  const queries: CodeQuery[] = [];
  found.forEach((x, n) => {
    const base = { lang: x.lang, rel: x.rel, startLine: x.start, endLine: x.end };
    const sentence = firstSentence(x.f.doc);
    if (sentence) queries.push({ id: `doc-${n}`, kind: 'docstring', text: sentence, ...base });
    if (nameCount.get(x.f.name.toLowerCase()) === 1 && x.f.name.replace(/^_+/, '').length >= 4) {
      queries.push({ id: `id-${n}`, kind: 'identifier', text: x.f.name, ...base });
      const words = x.f.name
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/_+/g, ' ')
        .trim()
        .toLowerCase();
      if (words.split(' ').length >= 2) queries.push({ id: `split-${n}`, kind: 'split', text: words, ...base });
    }
  });
  return { files, queries };
}

/**
 * Which half of the set a query belongs to: by a hash of its function's place, so the three
 * queries of one function (docstring, identifier, split words) are always in the same half and
 * a weight tuned on `tune` is judged on functions it never saw.
 */
export function splitOf(q: Pick<CodeQuery, 'rel' | 'startLine'>): 'tune' | 'held-out' {
  let h = 0x811c9dc5;
  for (const ch of `${q.rel}:${q.startLine}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h % 2 === 0 ? 'tune' : 'held-out';
}
