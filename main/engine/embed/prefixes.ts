/**
 * What an embedding model reads for a query or a document: the text, with shouting folded, behind
 * the model's prefix. Asymmetric retrieval models (BGE, Arctic Embed) were trained with an
 * instruction in front of queries only; leaving it out costs them several points of nDCG.
 */
import type { ModelSpec } from './registry.js';

export type TextRole = 'query' | 'document';

/** Shorter text is left alone: a lone acronym ("NASA", "TODO") is meant as written. */
const SHOUT_MIN_LETTERS = 8;
const SHOUT_UPPER_SHARE = 0.8;

/**
 * Text written all in capitals ("MEASUREMENT OF DIELECTRIC CONSTANT") becomes lower case. A cased
 * model's vocabulary (USE-lite's has 1,783 capitalised pieces of 8,000) holds few whole upper-case
 * words, so shouted text falls apart into letters and its vector lands nowhere near the same words
 * in ordinary case: on the NPL test set, whose queries are all capitals, USE-lite scored nDCG@10
 * 0.006. Uncased models lower-case everything anyway, so folding changes nothing for them.
 */
export function foldShouting(text: string): string {
  let upper = 0;
  let cased = 0;
  for (const ch of text) {
    const lower = ch.toLowerCase();
    if (lower === ch.toUpperCase()) continue;
    cased++;
    if (ch !== lower) upper++;
  }
  return cased >= SHOUT_MIN_LETTERS && upper >= cased * SHOUT_UPPER_SHARE ? text.toLowerCase() : text;
}

export function withPrefix(
  model: Pick<ModelSpec, 'queryPrefix' | 'documentPrefix'>,
  role: TextRole,
  texts: string[],
): string[] {
  const prefix = role === 'query' ? model.queryPrefix : model.documentPrefix;
  return texts.map((t) => prefix + foldShouting(t));
}
