import { isUtf8 } from 'node:buffer';

/** Characters that end a literal run outside a class: metacharacters and the quantifier openers. */
const SPECIAL = new Set(['.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '^', '$', '\\']);
const QUANTIFIER = new Set(['*', '+', '?', '{']);
/** Shortest literal worth a separate pass over the bytes. */
const MIN_LITERAL = 3;

/** Length of what follows an escape's letter or digit and belongs to it. */
function escapeTail(source: string, from: number, kind: string): number {
  const rest = source.slice(from);
  const m =
    kind === 'x'
      ? /^[0-9A-Fa-f]{0,2}/.exec(rest)
      : kind === 'u'
        ? /^(\{[^}]*\}|[0-9A-Fa-f]{0,4})/.exec(rest)
        : kind === 'c'
          ? /^[A-Za-z]?/.exec(rest)
          : kind === 'k'
            ? /^(<[^>]*>)?/.exec(rest)
            : kind === 'p' || kind === 'P'
              ? /^(\{[^}]*\})?/.exec(rest)
              : /[0-9]/.test(kind)
                ? /^[0-9]*/.exec(rest)
                : null;
  return m ? m[0].length : 0;
}

function isAsciiPrintable(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code < 0x7f;
}

/**
 * The longest ASCII string every match of a JavaScript pattern (no `u` flag) must contain, or null
 * when none can be told safely. Conservative by construction: only runs of plain characters at the
 * top level count; a top-level `|` gives up; groups, classes, escapes other than escaped
 * punctuation, anchors and anything non-ASCII end a run, and a quantifier takes back the character
 * it applies to. What is returned may be shorter than what ripgrep would find, never wrong.
 */
export function requiredLiteral(source: string): string | null {
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run) runs.push(run);
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '|') return null;
    if (c === '\\') {
      const next = source[i + 1];
      i++;
      // `\(` or `\.`: the character itself. Letters and digits start classes, anchors, backreferences
      // or code escapes, whose tail (`\x41`, `\u{1F600}`, `\k<name>`, `\12`) must not read as literal.
      if (next !== undefined && isAsciiPrintable(next) && !/[A-Za-z0-9]/.test(next)) {
        run += next;
        continue;
      }
      end();
      if (next !== undefined) i += escapeTail(source, i + 1, next);
      continue;
    }
    if (c === '[') {
      // In JavaScript the first unescaped `]` closes a class, even right after `[`.
      i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      end();
      continue;
    }
    if (c === '(') {
      let depth = 1;
      i++;
      for (; i < source.length && depth > 0; i++) {
        const g = source[i];
        if (g === '\\') i++;
        else if (g === '[') {
          i++;
          while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
        } else if (g === '(') depth++;
        else if (g === ')') depth--;
      }
      i--;
      end();
      continue;
    }
    if (QUANTIFIER.has(c)) {
      // The quantifier applies to the last character, which may then be absent: it leaves the run.
      run = run.slice(0, -1);
      end();
      // Skip a `{n,m}` body, whose digits are no literal. (A `{` that is not a quantifier is a
      // literal brace in this dialect; ending the run there only loses precision.)
      const body = c === '{' ? /^\{\d+(,\d*)?\}/.exec(source.slice(i)) : null;
      if (body) i += body[0].length - 1;
      continue;
    }
    if (SPECIAL.has(c) || !isAsciiPrintable(c)) {
      end();
      continue;
    }
    run += c;
  }
  end();
  let best: string | null = null;
  for (const r of runs) if (r.length >= MIN_LITERAL && (!best || r.length > best.length)) best = r;
  return best;
}

/**
 * A test on a file's raw bytes that is false only when no line of the decoded text can match, so
 * the many files without a hit are never decoded, split or run through the regex. Null when there
 * is no safe test. Sound for UTF-8 (a string's UTF-8 bytes appear in the bytes of every text that
 * contains it); other files are decoded as Windows-1252, where that does not hold, so they always pass.
 */
export function bytePrefilter(
  pattern: string,
  regex: boolean,
  caseSensitive: boolean,
): ((bytes: Buffer) => boolean) | null {
  // A literal pattern is its own required string, non-ASCII included, when case counts.
  const literal = regex ? requiredLiteral(pattern) : pattern;
  if (!literal) return null;
  let found: (bytes: Buffer) => boolean;
  if (caseSensitive) {
    const needle = Buffer.from(literal, 'utf8');
    found = (bytes) => bytes.indexOf(needle) !== -1;
  } else {
    // Without the `u` flag, case-insensitive matching never pairs a non-ASCII character with an
    // ASCII one, so an ASCII literal matches only ASCII text, whose bytes read the same as Latin-1.
    if (![...literal].every(isAsciiPrintable)) return null;
    const re = new RegExp(literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    found = (bytes) => re.test(bytes.toString('latin1'));
  }
  return (bytes) => found(bytes) || !isUtf8(bytes);
}
