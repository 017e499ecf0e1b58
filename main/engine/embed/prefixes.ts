/**
 * Query and document prefixes. Asymmetric retrieval models (BGE, Arctic Embed) were trained with
 * an instruction in front of queries only; leaving it out costs them several points of nDCG.
 */
import type { ModelSpec } from './registry.js';

export type TextRole = 'query' | 'document';

export function withPrefix(model: Pick<ModelSpec, 'queryPrefix' | 'documentPrefix'>, role: TextRole, texts: string[]): string[] {
  const prefix = role === 'query' ? model.queryPrefix : model.documentPrefix;
  return prefix ? texts.map((t) => prefix + t) : texts;
}
