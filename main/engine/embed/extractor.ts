/** What an embedding worker runs: texts in, one L2-normalised vector per text out (flat, row-major). */
export interface Extractor {
  /** `texts` are never empty (worker.ts embeds an empty text as one space). */
  embed(texts: string[]): Promise<{ dimensions: number; data: Float32Array }>;
  dispose(): Promise<void>;
}
