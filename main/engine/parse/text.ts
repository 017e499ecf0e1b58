import type { ChunkDraft, ChunkKind, ParsedFile } from '../types.js';
import { defaultOverlap, packParagraphs, toUnits, type TokenBudget } from './budget.js';

/** Plain text and data files: paragraph-aware windows over the decoded text. */
export function parseText(text: string, budget: TokenBudget, kind: ChunkKind = 'text', language?: string): ParsedFile {
  const chunks: ChunkDraft[] = packParagraphs(toUnits(text), budget, defaultOverlap(budget)).map((w) => ({
    kind,
    ...(language ? { language } : {}),
    startLine: w.startLine,
    endLine: w.endLine,
    text: w.text,
  }));
  return { chunks, symbols: [], refs: [] };
}
