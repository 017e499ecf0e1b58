import { MatchQuery, type Table } from '@lancedb/lancedb';
import type { LegResult } from './fusion.js';
import { expandQuery } from './identifiers.js';

/** BM25 over the chunks' `search_text` (native LanceDB full-text index). */
export async function sparseLeg(chunks: Table, query: string, where: string | undefined, limit: number, weight: number): Promise<LegResult> {
  // A MatchQuery takes the words as words: a person's `Great-circle` or `C++` is not query syntax.
  let q = chunks.query().fullTextSearch(new MatchQuery(expandQuery(query), 'search_text')).select(['id', 'rel', '_score']).limit(limit);
  if (where) q = q.where(where);
  const rows = (await q.toArray()) as { id: string; rel: string; _score: number }[];
  // Rows not yet folded into the index are scored by a flat scan and appended, not merged: sort.
  rows.sort((a, b) => b._score - a._score || (a.id < b.id ? -1 : 1));
  return { leg: 'sparse', weight, ids: rows.map((r) => r.id), scores: rows.map((r) => r._score), rels: rows.map((r) => r.rel) } as LegResult & { rels: string[] };
}

/** Cosine nearest neighbours in the model's vectors table; scores are similarities (1 - distance). */
export async function vectorLeg(vectors: Table, vector: Float32Array, where: string | undefined, limit: number, weight: number): Promise<LegResult> {
  let q = vectors.query().nearestTo(vector).distanceType('cosine').select(['id', 'rel']).limit(limit);
  // Recall over speed: HNSW's default ef misses neighbours; refine re-ranks with exact distances.
  q = q.ef(Math.max(200, limit * 2)).refineFactor(2);
  if (where) q = q.where(where);
  const rows = (await q.toArray()) as { id: string; rel: string; _distance: number }[];
  return { leg: 'vector', weight, ids: rows.map((r) => r.id), scores: rows.map((r) => 1 - r._distance), rels: rows.map((r) => r.rel) } as LegResult & { rels: string[] };
}
