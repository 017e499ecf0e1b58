import type { GrepRequest } from '../../common/requests.js';
import { LIMITS } from '../../common/requests.js';
import { CairnError } from '../errors.js';
import { decodeText } from '../parse/decode.js';
import { bytePrefilter } from './grep-prefilter.js';

const MAX_LINE_CHARS = 400;

/** What grep needs of a request to search one file; plain data, so it crosses to a worker. */
export interface MatchSpec {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
}

/** One matching line of a file. */
export interface LineHit {
  line: number;
  text: string;
}

export function matchSpec(req: GrepRequest): MatchSpec {
  return { pattern: req.pattern, regex: req.regex === true, caseSensitive: req.case_sensitive !== false };
}

export function compile(spec: MatchSpec): RegExp {
  if (typeof spec.pattern !== 'string' || spec.pattern.length === 0)
    throw new CairnError('invalid_argument', 'pattern must be a non-empty string', { details: { key: 'pattern' } });
  if (spec.pattern.length > LIMITS.patternChars)
    throw new CairnError('invalid_argument', `pattern is too long (${LIMITS.patternChars} characters at most)`, {
      details: { key: 'pattern' },
    });
  const source = spec.regex ? spec.pattern : spec.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return new RegExp(source, spec.caseSensitive ? '' : 'i');
  } catch (err) {
    throw new CairnError('invalid_argument', `invalid regular expression: ${(err as Error).message}`, {
      details: { key: 'pattern' },
    });
  }
}

/**
 * A file's lines as grep tools count them: split on '\n', where a final newline ends the last
 * line rather than starting an empty one (so `^$` finds no phantom line, as in ripgrep), and an
 * empty file has no lines.
 */
export function linesOf(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** The line search of one file's bytes: decoded, split into lines, each line tested. */
export class FileMatcher {
  private readonly re: RegExp;
  private readonly whole: RegExp;
  private readonly mayMatch: ((bytes: Buffer) => boolean) | null;

  constructor(spec: MatchSpec) {
    this.re = compile(spec);
    // The whole-file pre-test must read `^` and `$` per line, as the line test does.
    this.whole = new RegExp(this.re.source, `${this.re.flags}m`);
    // Most files hold no match: a literal every match needs rules them out on raw bytes, undecoded.
    this.mayMatch = bytePrefilter(spec.pattern, spec.regex, spec.caseSensitive);
  }

  /** Up to `limit` matching lines, in order. */
  match(bytes: Buffer, limit: number): LineHit[] {
    if (this.mayMatch && !this.mayMatch(bytes)) return [];
    const text = decodeText(bytes);
    // Cheap whole-file test next: the line split below is the costly part.
    if (!this.whole.test(text)) return [];
    const hits: LineHit[] = [];
    const lines = linesOf(text);
    for (let i = 0; i < lines.length && hits.length < limit; i++) {
      if (!this.re.test(lines[i])) continue;
      hits.push({
        line: i + 1,
        text: lines[i].length > MAX_LINE_CHARS ? `${lines[i].slice(0, MAX_LINE_CHARS)}…` : lines[i],
      });
    }
    return hits;
  }
}
