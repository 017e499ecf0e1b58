/**
 * Synthetic document vectors for the large fixtures. Embedding 100k chunks with the model takes
 * 17 minutes on two idle cores (hours on busy ones), while search latency, start-up and memory
 * depend on the vectors' count and dimension, not on what they mean. A synthetic vector here is a
 * bag of words: the normalised sum of one fixed pseudo-random direction per word, at the model's
 * dimension. Chunks that share words lie close together, so the index sees clustered data like
 * real embeddings rather than uniform noise. Results built on these say so (`vectors: synthetic`).
 */
import { createRng } from './prng.js';
import type { BenchEngine } from './engine.js';

export type FixtureVectors = 'model' | 'synthetic';

function hash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class BagOfWordsVectors {
  private readonly directions = new Map<string, Float32Array>();

  constructor(readonly dimensions: number) {}

  private direction(word: string): Float32Array {
    let d = this.directions.get(word);
    if (!d) {
      const rng = createRng(hash(word));
      d = Float32Array.from({ length: this.dimensions }, () => rng.next() * 2 - 1);
      this.directions.set(word, d);
    }
    return d;
  }

  vector(text: string): Float32Array {
    const out = new Float32Array(this.dimensions);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      const d = this.direction(word);
      for (let i = 0; i < out.length; i++) out[i] += d[i];
    }
    let norm = 0;
    for (const x of out) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < out.length; i++) out[i] /= norm;
    return out;
  }
}

/**
 * Makes the engine's loaded model return synthetic document vectors (queries keep the model), so
 * the engine's own pipeline writes and indexes them. Returns the generator for query vectors.
 */
export async function useSyntheticDocumentVectors(engine: BenchEngine): Promise<BagOfWordsVectors> {
  const embedder = await engine.embedder();
  const bag = new BagOfWordsVectors(embedder.dimensions);
  const target = embedder as {
    embedDocuments: (texts: string[], onProgress?: (done: number) => void) => Promise<Float32Array[]>;
  };
  target.embedDocuments = async (texts, onProgress) => {
    const out = texts.map((t) => bag.vector(t));
    onProgress?.(out.length);
    return out;
  };
  return bag;
}
