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
   * `end => count(text.slice(0, end))`, exactly, after one pass over `text`: the chunker's search
   * for the longest prefix of a long line that fits probes a dozen prefixes, and counting each anew
   * was most of the time spent parsing prose. A prefix is the text's runs before the one `end`
   * falls in, that run cut at `end` (a cut word is counted as the word it is), and the edge spaces.
   */
  prefixes(text: string): (end: number) => number {
    const starts: number[] = [];
    /** The count of every run before run k, and of run k itself. */
    const before: number[] = [];
    const costs: number[] = [];
    /** For a whitespace run, where its first character other than a space is (its end if none). */
    const other: number[] = [];
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
        let first = c !== 32 ? start : -1;
        while (++i < n && isSpace((c = text.charCodeAt(i)))) if (c !== 32 && first < 0) first = i;
        other.push(first < 0 ? i : first);
        cost = runCost(first >= 0, i - start);
      } else {
        while (++i < n && !isSpace(text.charCodeAt(i)));
        other.push(-1);
        cost = this.word(text.slice(start, i));
      }
      costs.push(cost);
      total += cost;
    }
    const lead = n > 0 && text.charCodeAt(0) === 32 ? 1 : 0;
    return (end) => {
      if (end <= 0) return 0;
      if (end > n) throw new RangeError(`prefix ${end} is past the text's ${n} characters`);
      // The run that holds the prefix's last character: the last one starting before `end`.
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] < end) lo = mid;
        else hi = mid - 1;
      }
      const runEnd = lo + 1 < starts.length ? starts[lo + 1] : n;
      let cost = costs[lo];
      if (end < runEnd)
        cost = other[lo] < 0 ? this.word(text.slice(starts[lo], end)) : runCost(other[lo] < end, end - starts[lo]);
      return before[lo] + cost + lead + (text.charCodeAt(end - 1) === 32 ? 1 : 0);
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
