import { detectLatin, LATIN_LANGUAGES, stem, type Detected, type LatinLanguage } from './text-language.js';
import { compoundParts } from './compounds.js';
import { UNSPACED, unspacedWords } from './word-breaks.js';

/**
 * Cairn's own text analysis for BM25, in front of LanceDB's full-text index (which then only
 * splits on whitespace): the index stores the analysed tokens and a query is analysed the same
 * way. Modelled on Lucene's analyzers as Anserini and Elasticsearch use them:
 * - words are runs of letters, digits and marks (Unicode), with a possessive `'s` dropped;
 * - camelCase identifiers also give their parts (`parseInvoiceTotals` → parse, invoice, totals);
 * - Lucene's 33 English stop words are dropped;
 * - English words get the Porter stemmer, other Latin-script text the Snowball stemmer of its
 *   language (detected per chunk, falling back to the file's), Cyrillic Russian, Arabic Arabic;
 * - Chinese, Japanese and Korean runs become overlapping bigrams, as Lucene's CJKAnalyzer does
 *   (so 熊猫 finds 大熊猫), and, in the index only, single characters too (a one-character query);
 * - Thai, Lao, Khmer and Myanmar runs are broken into dictionary words (word-breaks.ts);
 * - a long word of German text also gives, in the index only, its compound parts (compounds.ts).
 * Changing anything here changes what stored tokens mean: bump ANALYZER_VERSION (part of the
 * index's sparse contract), so old indexes report `sparse_contract_mismatch` and are rebuilt.
 */
export const ANALYZER_VERSION = 4;

/** Lucene's EnglishAnalyzer stop set (ENGLISH_STOP_WORDS_SET). */
const STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const POSSESSIVE = /(\p{L})['’\u02BC]s(?![\p{L}\p{N}])/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\u3005]+/u;
const CJK_SPLIT = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\u3005]+)/u;
const CYRILLIC = /^[\p{Script=Cyrillic}\p{M}]+$/u;
const ARABIC = /^[\p{Script=Arabic}\p{M}]+$/u;
const LATIN = /\p{Script=Latin}/u;
const MARKS = /\p{M}+/gu;
const ASCII_WORD = /^[a-z]+$/;
/**
 * Inner case changes of an identifier: fooBar, HTTPServer → HTTP Server, utf8Decode. An upper-case
 * run at the end stays whole (mRNA, getURL's URL), so prose acronyms give no one-letter parts.
 */
const CAMEL = /(?<=[a-z0-9])(?=[A-Z][a-z])|(?<=[A-Z])(?=[A-Z][a-z])/;
/** Words sampled for detecting a text's language: enough for a verdict, cheap on a 200 kB file. */
const DETECT_WORDS = 2000;

interface RawWord {
  /** Lower case, NFKC. */
  word: string;
  /** The parts of a camelCase identifier (lower case), when it has more than one. */
  parts?: string[];
}

function rawWords(text: string): RawWord[] {
  const out: RawWord[] = [];
  // `match` with /g gives the words as strings; `matchAll` built a match object for each.
  for (const w of text.normalize('NFKC').replace(POSSESSIVE, '$1').match(WORD) ?? []) {
    const lower = w.toLowerCase();
    if (lower !== w && /[a-z]/.test(w)) {
      const parts = w.split(CAMEL);
      if (parts.length > 1) {
        out.push({ word: lower, parts: parts.map((p) => p.toLowerCase()) });
        continue;
      }
    }
    out.push({ word: lower });
  }
  return out;
}

/** Characters `textLanguage` reads: enough for DETECT_WORDS words. */
const DETECT_CHARS = DETECT_WORDS * 12;

function languageOf(words: readonly RawWord[]): Detected {
  const sample = words.slice(0, DETECT_WORDS).map((w) => w.word);
  return detectLatin(sample, sample.join(' '));
}

/** The language evidence of a text (for `analyzeForIndex`'s fallback: a file's language for its chunks). */
export function textLanguage(text: string): Detected {
  return languageOf(rawWords(text.slice(0, DETECT_CHARS)));
}

/** Lines as the chunkers cut them (parse/budget.ts toUnits): a chunk's line numbers count these. */
const LINE_BREAK = /\r\n|\r|\n/;
/** Past this a file's words and terms are not all held at once: its chunks are analysed one by one. */
const LINE_MEMO_CHARS = 200_000;

/**
 * A file's text, its words and terms found once per line for everything a file's rows need: its
 * language (`textLanguage`), its document's tokens (`analyzeAfter`) and each chunk's
 * (`analyzeChunk`), since a chunk of a text file is a run of its lines and its document is all of
 * them. Words never cross a line break, nor do NFKC or the possessive rule, so a joined text's
 * words are those of its lines in turn, and its tokens theirs (each analysed in the joined text's
 * language). Analysing each chunk and then the document anew, reading and parsing 683 READMEs
 * (32k chunks) took 2.06-2.28 s of CPU against 1.87-2.09 s.
 */
export class FileText {
  private words: RawWord[] | null = null;
  private lines: string[] | null = null;
  private readonly lineWords: RawWord[][] = [];
  /** Per language, each line's tokens joined, or null where it has none. */
  private readonly lineTerms = new Map<LatinLanguage, (string | null)[]>();

  constructor(private readonly text: string) {}

  language(): Detected {
    if (this.text.length > DETECT_CHARS) return textLanguage(this.text);
    return languageOf(this.allWords());
  }

  /** `analyzeForIndex(`${header}\n${text}`.slice(0, maxChars), fallback)`. */
  analyzeAfter(header: string, maxChars: number, fallback: LatinLanguage): string {
    const joined = header.length + 1 + this.text.length;
    if (joined > maxChars) return analyzeForIndex(`${header}\n${this.text}`.slice(0, maxChars), fallback);
    const head = rawWords(`${header}\n`);
    const lines = this.memoLines();
    if (lines) return this.analyzeRun(head, 0, lines.length, fallback);
    return analyzeWords([...head, ...this.allWords()], fallback);
  }

  /**
   * `analyzeForIndex(`${head}\n${text}`, fallback)` for a chunk whose text is said to be lines
   * `startLine`..`endLine` (1-based) of the file: from their words and terms when it is, checked.
   */
  analyzeChunk(head: string, text: string, startLine: number, endLine: number, fallback: LatinLanguage): string {
    if (!this.holds(text, startLine - 1, endLine)) return analyzeForIndex(`${head}\n${text}`, fallback);
    return this.analyzeRun(rawWords(`${head}\n`), startLine - 1, endLine, fallback);
  }

  /** The file's lines, when it is small enough to hold their words and terms. */
  private memoLines(): string[] | null {
    if (this.text.length > LINE_MEMO_CHARS) return null;
    return (this.lines ??= this.text.split(LINE_BREAK));
  }

  private allWords(): RawWord[] {
    if (this.words) return this.words;
    const lines = this.memoLines();
    if (!lines) return (this.words = rawWords(this.text));
    const all: RawWord[] = [];
    for (let k = 0; k < lines.length; k++) for (const w of this.wordsOf(k)) all.push(w);
    return (this.words = all);
  }

  private wordsOf(k: number): RawWord[] {
    return (this.lineWords[k] ??= rawWords((this.lines as string[])[k]));
  }

  /** Whether `text` is exactly lines [from, to) joined by line feeds. */
  private holds(text: string, from: number, to: number): boolean {
    const lines = this.memoLines();
    if (!lines || !(from >= 0 && from < to && to <= lines.length)) return false;
    let at = 0;
    for (let k = from; k < to; k++) {
      if (k > from) {
        if (text.charCodeAt(at) !== 10) return false;
        at++;
      }
      if (!text.startsWith(lines[k], at)) return false;
      at += lines[k].length;
    }
    return at === text.length;
  }

  /** `analyzeWords` of `head` then lines [from, to)'s words. */
  private analyzeRun(head: RawWord[], from: number, to: number, fallback: LatinLanguage): string {
    const sample = head.slice(0, DETECT_WORDS);
    for (let k = from; k < to && sample.length < DETECT_WORDS; k++)
      for (const w of this.wordsOf(k)) {
        if (sample.length >= DETECT_WORDS) break;
        sample.push(w);
      }
    const d = languageOf(sample);
    const language = d.confident ? d.language : fallback;
    let terms = this.lineTerms.get(language);
    if (!terms) this.lineTerms.set(language, (terms = []));
    const parts: string[] = [];
    const own = analyze(head, [language], true);
    if (own.length > 0) parts.push(own.join(' '));
    for (let k = from; k < to; k++) {
      let t = terms[k];
      if (t === undefined) {
        const line = analyze(this.wordsOf(k), [language], true);
        terms[k] = t = line.length > 0 ? line.join(' ') : null;
      }
      if (t !== null) parts.push(t);
    }
    return parts.join(' ');
  }
}

function fold(w: string): string {
  return w.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

/** One non-CJK word in one Latin language (stop words already removed). */
function latinTerm(w: string, language: LatinLanguage): string {
  if (language === 'en') {
    // Folding first, so résumé and resume meet; Porter reads plain a-z only (as Lucene's does).
    const f = fold(w);
    return ASCII_WORD.test(f) ? stem('en', f) : f;
  }
  return fold(stem(language, w));
}

/**
 * The index terms of one word with no CJK in it, or null for a stop word. A query word in
 * Russian or Arabic also stands as written: Snowball does not always give a base form and its
 * inflections one stem (экзамен → экзам, экзаменам → экзамен), and the base form is what people type.
 */
function terms(w: string, languages: readonly LatinLanguage[], querySide: boolean): string[] | null {
  if (STOP.has(w)) return null;
  if (UNSPACED.test(w)) return unspacedWords(w);
  if (CYRILLIC.test(w)) {
    const plain = w.replace(/ё/g, 'е');
    const s = stem('ru', plain);
    return querySide && s !== plain ? [s, plain] : [s];
  }
  if (ARABIC.test(w)) {
    const plain = w.replace(MARKS, '');
    const s = stem('ar', plain);
    return querySide && s !== plain ? [s, plain] : [s];
  }
  if (!LATIN.test(w)) return [w];
  const out = new Set<string>();
  for (const l of languages) out.add(latinTerm(w, l));
  // One language only on the index side: the text's.
  if (!querySide && languages[0] === 'de') for (const part of compoundParts(w)) out.add(latinTerm(part, 'de'));
  return [...out];
}

const INDEX_TERMS_MAX = 200_000;
const NONE: readonly string[] = [];
const indexTermsCache = new Map<LatinLanguage, Map<string, readonly string[]>>();

/**
 * The index terms of one word (CJK runs in it included), remembered per language: words recur
 * across a folder's chunks, and folding, stemming and testing each occurrence anew was a third of
 * turning a file into rows.
 */
function indexTerms(w: string, language: LatinLanguage): readonly string[] {
  let cache = indexTermsCache.get(language);
  if (!cache) indexTermsCache.set(language, (cache = new Map()));
  let t = cache.get(w);
  if (t === undefined) {
    // A bounded memo: when full, start over rather than track recency on this hot path.
    if (cache.size >= INDEX_TERMS_MAX) cache.clear();
    const out: string[] = [];
    wordTerms(w, (x) => terms(x, [language], false), true, out);
    t = out.length > 0 ? out : NONE;
    cache.set(w, t);
  }
  return t;
}

/** Bigrams of a CJK run (a single character alone stays one); with `unigrams`, each character too. */
function cjkTerms(run: string, unigrams: boolean, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) {
    out.push(chars[0]);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  if (unigrams) out.push(...chars);
}

/** One word's terms into `out`: CJK runs as bigrams, the rest through `termsOf`. */
function wordTerms(w: string, termsOf: (w: string) => string[] | null, unigrams: boolean, out: string[]): void {
  if (!CJK.test(w)) {
    const t = termsOf(w);
    if (t) out.push(...t);
    return;
  }
  for (const piece of w.split(CJK_SPLIT)) {
    if (piece === '') continue;
    if (CJK.test(piece)) cjkTerms(piece, unigrams, out);
    else {
      const t = termsOf(piece);
      if (t) out.push(...t);
    }
  }
}

function analyze(words: RawWord[], languages: readonly LatinLanguage[], indexSide: boolean): string[] {
  const out: string[] = [];
  const push = indexSide
    ? (w: string) => {
        for (const t of indexTerms(w, languages[0])) out.push(t);
      }
    : (w: string) => wordTerms(w, (x) => terms(x, languages, true), false, out);
  for (const w of words) {
    push(w.word);
    if (w.parts) for (const p of w.parts) push(p);
  }
  return out;
}

/**
 * The token string stored in a full-text column for `text`. `fallback` is the language of the
 * whole file, used when this piece alone says too little (a heading, a short chunk).
 */
export function analyzeForIndex(text: string, fallback?: LatinLanguage): string {
  return analyzeWords(rawWords(text), fallback);
}

function analyzeWords(words: RawWord[], fallback?: LatinLanguage): string {
  const d = languageOf(words);
  const language = d.confident || !fallback ? d.language : fallback;
  return analyze(words, [language], true).join(' ');
}

/**
 * A query's terms. A query long enough to show its language is stemmed in it; a short one (one or
 * two content words, no function word) is stemmed in every Latin language, since its language is
 * unknown: its words then meet a German or French document stemmed in that document's language.
 */
export function analyzeQuery(query: string): string {
  const words = rawWords(query);
  const lower = words.map((w) => w.word);
  const d = detectLatin(lower, lower.join(' '));
  const languages = d.confident ? [d.language] : LATIN_LANGUAGES;
  // Each term once (LanceDB 0.37 would count a repeat again). Counting repeats scored lower on all
  // five quality sets than bench/results/quality-sparse.json (sparse nDCG@10: SciFact -0.005,
  // MEDLINE -0.019): a long query's repeats are mostly the analyzer's own (a word and its parts,
  // one stem from several languages), not the person's emphasis.
  return [...new Set(analyze(words, languages, false))].join(' ');
}
