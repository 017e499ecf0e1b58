/**
 * Words of scripts written without spaces between words, other than CJK (which gets bigrams in
 * analyzer.ts): Thai, Lao, Khmer and Myanmar. ICU's dictionary word breaker, built into Node as
 * `Intl.Segmenter`, finds the words, as Lucene's ThaiAnalyzer and Elasticsearch's ICU tokenizer
 * do. The dictionary decides by context and keeps compounds whole (กรุงเทพมหานคร is one word, so
 * กรุงเทพ alone would never meet it), so each run also gives its character bigrams, on both sides:
 * the n-gram fallback finds any substring, the words rank the exact matches first (a bigram is
 * common, a word rarer).
 */
export const UNSPACED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

let segmenter: Intl.Segmenter | undefined;

/** The dictionary words of a run of letters holding an unspaced script, then its bigrams. */
export function unspacedWords(run: string): string[] {
  segmenter ??= new Intl.Segmenter('th', { granularity: 'word' });
  // NFKC (analyzer.ts) splits Thai SARA AM into NIKHAHIT + SARA AA; the dictionary knows it whole.
  const text = run.replace(/\u0E4D\u0E32/g, '\u0E33');
  const out: string[] = [];
  for (const s of segmenter.segment(text)) if (s.isWordLike) out.push(s.segment);
  const chars = [...text];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}
