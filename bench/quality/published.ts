/**
 * Published and reference figures, copied from each set's SOURCE.md and from
 * ../shared/notes/offline-embedding-model.md, so the report can show them beside ours.
 */
export interface Published {
  system: string;
  ndcg10: number;
  recall100?: number;
  mrr10?: number;
  source: string;
}

export const PUBLISHED: Record<string, Published[]> = {
  scifact: [
    { system: 'BM25 (BEIR paper)', ndcg10: 0.665, recall100: 0.908, source: 'Thakur et al. 2021' },
    { system: 'BM25 Anserini flat', ndcg10: 0.6789, recall100: 0.9253, source: 'anserini regressions' },
    {
      system: 'BM25 reference (k1 0.9, b 0.4)',
      ndcg10: 0.6759,
      recall100: 0.9287,
      mrr10: 0.642,
      source: 'scifact/SOURCE.md',
    },
    { system: 'USE-lite dense (note)', ndcg10: 0.258, source: 'offline-embedding-model.md' },
    { system: 'all-MiniLM-L6-v2', ndcg10: 0.6451, recall100: 0.925, source: 'MTEB results' },
    { system: 'bge-small-en-v1.5', ndcg10: 0.7127, recall100: 0.945, source: 'MTEB results' },
    { system: 'e5-small-v2', ndcg10: 0.6885, recall100: 0.9277, source: 'MTEB results' },
  ],
  cosqa: [
    {
      system: 'BM25 reference (k1 0.9, b 0.4)',
      ndcg10: 0.362,
      recall100: 0.802,
      mrr10: 0.3098,
      source: 'cosqa/SOURCE.md',
    },
    { system: 'USE-lite dense (note)', ndcg10: 0.038, source: 'offline-embedding-model.md' },
    {
      system: 'all-MiniLM-L6-v2 (MTEB, larger corpus)',
      ndcg10: 0.3302,
      recall100: 0.912,
      source: 'MTEB CosQA (CoIR corpus)',
    },
    {
      system: 'bge-small-en-v1.5 (MTEB, larger corpus)',
      ndcg10: 0.3205,
      recall100: 0.868,
      source: 'MTEB CosQA (CoIR corpus)',
    },
  ],
  cranfield: [
    {
      system: 'BM25 reference (k1 0.9, b 0.4)',
      ndcg10: 0.3518,
      recall100: 0.7213,
      mrr10: 0.5086,
      source: 'cranfield/SOURCE.md',
    },
    { system: 'USE-lite dense (note)', ndcg10: 0.197, source: 'offline-embedding-model.md' },
  ],
  medline: [
    {
      system: 'BM25 reference (k1 0.9, b 0.4)',
      ndcg10: 0.6708,
      recall100: 0.7719,
      mrr10: 0.8858,
      source: 'medline/SOURCE.md',
    },
    { system: 'USE-lite dense (note)', ndcg10: 0.429, source: 'offline-embedding-model.md' },
  ],
  npl: [
    {
      system: 'BM25 reference (k1 0.9, b 0.4)',
      ndcg10: 0.4378,
      recall100: 0.6186,
      mrr10: 0.6742,
      source: 'npl/SOURCE.md',
    },
  ],
};

/** The BM25 figure a set's sparse mode is held against. */
export function bm25Reference(set: string): number | undefined {
  return PUBLISHED[set]?.find((p) => p.system.startsWith('BM25'))?.ndcg10;
}
