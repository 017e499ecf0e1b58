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
        if (other) total += 3;
        else if (i - start > 1) total += 1;
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
