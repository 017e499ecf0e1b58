/**
 * Serving query vectors from memory during a latency run, so search timings exclude the query's
 * embedding (issue 6 §3). The embedding time itself is measured here and reported beside them.
 * Needs the engine to expose its query embedder; when it does not, timings include the embedding
 * and the results say so.
 */
import type { EngineApi } from '../../main/engine/api.js';
import type { Embedder } from '../../main/engine/types.js';

export interface PreEmbedded {
  excluded: boolean;
  embedMs: number[];
  restore(): void;
}

/** The engine's loaded query embedder, if the composition root exposes one. */
export async function engineEmbedder(engine: EngineApi): Promise<Embedder | null> {
  // `embeddingsRef` is the composition root's (private) handle; a public `embeddings` is preferred.
  const e = engine as unknown as Record<string, { get?: () => Promise<Embedder> } | undefined>;
  const holder = e.embeddings ?? e.embeddingsRef;
  if (typeof holder?.get !== 'function') return null;
  return holder.get();
}

export async function preEmbedQueries(engine: EngineApi, queries: readonly string[]): Promise<PreEmbedded> {
  const embedder = await engineEmbedder(engine);
  if (!embedder) return { excluded: false, embedMs: [], restore: () => undefined };
  const cache = new Map<string, Float32Array>();
  const embedMs: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    cache.set(q, await embedder.embedQuery(q));
    embedMs.push(performance.now() - t0);
  }
  const original = embedder.embedQuery.bind(embedder);
  const target = embedder as { embedQuery: (q: string) => Promise<Float32Array> };
  target.embedQuery = async (q: string) => cache.get(q) ?? original(q);
  return { excluded: true, embedMs, restore: () => void (target.embedQuery = original) };
}
