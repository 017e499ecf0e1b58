/**
 * A stand-in for the model's tokenizer (which belongs to the embedding code): every punctuation
 * mark is a token and words count one token per 4 characters, which over-estimates WordPiece/BPE on
 * ordinary text, so a chunk that fits here fits the real model too.
 */
export function countTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu))
    n += m[0].length > 1 && /[\p{L}\p{N}_]/u.test(m[0][0]) ? Math.ceil(m[0].length / 4) : 1;
  return n;
}

export const MAX_TOKENS = 128;
export const opts = { maxTokens: MAX_TOKENS, countTokens };
