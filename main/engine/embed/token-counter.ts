/**
 * Token counts for chunk sizing, fast enough to call on every candidate window (the chunker calls
 * it thousands of times per file; the tokenizer itself is ~100x slower). The models Cairn uses
 * pre-tokenize on whitespace, so a text costs about the sum of its words, each tokenized once and
 * cached. Whitespace other than one space between words (newlines, tabs, runs) costs tokens of
 * its own in SentencePiece (an unknown piece, and the next word loses its word-start marker):
 * three are charged per newline or tab run (one per run of spaces), so the count never falls below
 * the tokenizer's, only a little above.
 */
export class CachedTokenCounter {
  private readonly cache = new Map<string, number>();

  constructor(
    private readonly countWord: (word: string) => number,
    private readonly maxEntries = 200_000,
  ) {}

  /**
   * One pass over the characters: the regex match and split this replaces allocated two arrays per
   * call and were a third of all parsing time. Whitespace is exactly what `\s` matches.
   */
  count(text: string): number {
    const n = text.length;
    let total = 0;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (isSpace(c)) {
        const start = i;
        let other = c !== 32;
        while (++i < n && isSpace((c = text.charCodeAt(i)))) if (c !== 32) other = true;
        total += runCost(other, i - start);
        continue;
      }
      const start = i;
      while (++i < n && !isSpace(text.charCodeAt(i)));
      total += this.word(text.slice(start, i));
    }
    if (n > 0 && text.charCodeAt(0) === 32) total += 1;
    if (n > 0 && text.charCodeAt(n - 1) === 32) total += 1;
    return total;
  }

  /**
   * `(start, end) => count(text.slice(start, end))`, exactly, after one pass over `text`: the
   * chunker cuts a long line into pieces, probing a dozen ends for each, and counting each probe,
   * or each piece's prefixes, anew was most of the time spent parsing prose. A range is the text's
   * runs it covers, the runs at either edge cut to it (a cut word is counted as the word it is, a
   * cut whitespace run by what it still holds), and the edge spaces.
   */
  ranges(text: string): (start: number, end: number) => number {
    const starts: number[] = [];
    /** The count of every run before run k. */
    const before: number[] = [];
    const costs: number[] = [];
    const words: boolean[] = [];
    const n = text.length;
    let total = 0;
    let i = 0;
    while (i < n) {
      const start = i;
      starts.push(start);
      before.push(total);
      let c = text.charCodeAt(i);
      let cost: number;
      if (isSpace(c)) {
        let other = c !== 32;
        while (++i < n && isSpace((c = text.charCodeAt(i)))) if (c !== 32) other = true;
        cost = runCost(other, i - start);
        words.push(false);
      } else {
        while (++i < n && !isSpace(text.charCodeAt(i)));
        cost = this.word(text.slice(start, i));
        words.push(true);
      }
      costs.push(cost);
      total += cost;
    }
    /** The run holding character `at`: the last one starting at or before it. */
    const runAt = (at: number): number => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    const runEnd = (k: number) => (k + 1 < starts.length ? starts[k + 1] : n);
    /** Run k's count over [a, b), a part of it. */
    const part = (k: number, a: number, b: number): number => {
      if (a === starts[k] && b === runEnd(k)) return costs[k];
      if (words[k]) return this.word(text.slice(a, b));
      let other = false;
      for (let j = a; j < b && !other; j++) other = text.charCodeAt(j) !== 32;
      return runCost(other, b - a);
    };
    return (start, end) => {
      if (start < 0 || end > n) throw new RangeError(`range ${start}-${end} is outside the text's ${n} characters`);
      if (end <= start) return 0;
      const first = runAt(start);
      const last = runAt(end - 1);
      const inner =
        first === last
          ? part(first, start, end)
          : part(first, start, runEnd(first)) + before[last] - before[first + 1] + part(last, starts[last], end);
      return inner + (text.charCodeAt(start) === 32 ? 1 : 0) + (text.charCodeAt(end - 1) === 32 ? 1 : 0);
    };
  }

  /** Words this counter has not tokenized yet (in order, without repeats). */
  unknownWords(words: Iterable<string>): string[] {
    const out = new Set<string>();
    for (const w of words) if (w.length > 0 && !this.cache.has(w)) out.add(w);
    return [...out];
  }

  /** Counts learned elsewhere (another thread's tokenizer), so they are not asked for again. */
  learn(words: readonly string[], counts: readonly number[]): void {
    for (let k = 0; k < words.length; k++) this.remember(words[k], counts[k]);
  }

  private word(word: string): number {
    let n = this.cache.get(word);
    if (n === undefined) {
      n = this.countWord(word);
      this.remember(word, n);
    }
    return n;
  }

  private remember(word: string, n: number): void {
    // A bounded memo: when full, start over rather than track recency on this hot path.
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(word, n);
  }
}

/** A whitespace run: three tokens if it holds a newline, tab or other break, one for spaces beyond the first. */
function runCost(other: boolean, length: number): number {
  return other ? 3 : length > 1 ? 1 : 0;
}

/** The characters of the regex class `\s` (ECMAScript WhiteSpace and LineTerminator). */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
