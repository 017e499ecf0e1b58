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

  constructor(private readonly countWord: (word: string) => number, private readonly maxEntries = 200_000) {}

  count(text: string): number {
    let total = 0;
    for (const run of text.match(/\s+/g) ?? []) if (run !== ' ') total += /[^ ]/.test(run) ? 3 : 1;
    if (text.startsWith(' ')) total += 1;
    if (text.endsWith(' ')) total += 1;
    for (const word of text.split(/\s+/)) {
      if (word.length === 0) continue;
      let n = this.cache.get(word);
      if (n === undefined) {
        n = this.countWord(word);
        // A bounded memo: when full, start over rather than track recency on this hot path.
        if (this.cache.size >= this.maxEntries) this.cache.clear();
        this.cache.set(word, n);
      }
      total += n;
    }
    return total;
  }
}
