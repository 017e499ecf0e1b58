/**
 * Serving query vectors from memory during a latency run, so search timings exclude the query's
 * embedding (issue 6 §3). The embedding time itself is measured here and reported beside them.
 */
import type { Embedder } from '../../main/engine/types.js';
import type { BenchEngine } from './engine.js';

export interface PreEmbedded {
  excluded: boolean;
  embedMs: number[];
  restore(): void;
}

/** The engine's query embedder (its configured model, loaded on first use). */
export function engineEmbedder(engine: BenchEngine): Promise<Embedder> {
  return engine.embedder();
}

/**
 * `vectorOf` replaces the model's query vectors (a fixture with synthetic document vectors queries
 * with vectors of the same kind); the model's own embedding time is measured either way.
 */
export async function preEmbedQueries(
  engine: BenchEngine,
  queries: readonly string[],
  vectorOf?: (q: string) => Float32Array,
): Promise<PreEmbedded> {
  const embedder = await engineEmbedder(engine);
  const cache = new Map<string, Float32Array>();
  const embedMs: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const v = await embedder.embedQuery(q);
    embedMs.push(performance.now() - t0);
    cache.set(q, vectorOf ? vectorOf(q) : v);
  }
  const original = embedder.embedQuery.bind(embedder);
  const target = embedder as { embedQuery: (q: string) => Promise<Float32Array> };
  target.embedQuery = async (q: string) => cache.get(q) ?? original(q);
  return { excluded: true, embedMs, restore: () => void (target.embedQuery = original) };
}
