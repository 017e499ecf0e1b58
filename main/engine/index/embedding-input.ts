import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { ChunkRow } from './schema.js';

/** The columns of a chunk the embedding model's input is made of. */
export type EmbeddingInputSource = Pick<ChunkRow, 'rel' | 'heading' | 'symbol' | 'text'>;

/** The text the embedding model sees: a short title line, then the chunk (the model reads 128 tokens). */
export function embeddingText(row: EmbeddingInputSource): string {
  const title = row.heading || row.symbol || basename(row.rel);
  return `${title}\n${row.text}`;
}

/**
 * The key vectors are reused by: a hash of exactly what the model is given. Two chunks of equal
 * text under different titles (another file name, another heading) are different inputs, so each
 * gets its own vector; equal inputs anywhere share one.
 */
export function embeddingInputHash(row: EmbeddingInputSource): string {
  return createHash('sha1').update(embeddingText(row)).digest('hex');
}
