/**
 * Recall@10 of the engine's vector search (its own ANN parameters, via the engine's vector leg)
 * against exact search on the same table (issue 6 §3: at least 0.95). Query vectors are stored
 * chunk vectors, so no model is needed and the queries lie on the data's own distribution.
 */
import * as lancedb from '@lancedb/lancedb';
import { vectorLeg } from '../../main/engine/search/legs.js';
import { VectorReads } from '../../main/engine/index/search-reads.js';
import { maintain } from '../../main/engine/index/maintenance.js';
import { numberOption } from '../lib/args.js';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { fixtureOptions, fixtureSizes, indexDir, indexedCorpus, vectorsNote } from '../lib/indexed-fixture.js';
import { createRng } from '../lib/prng.js';
import { emptyOutput, target } from '../lib/results.js';
import { round, roundSpread, spread } from '../lib/stats.js';

export const vectorRecallBenchmark: Benchmark = {
  name: 'vector-recall',
  description: 'vector index recall@10 against exact search',
  async run(ctx: BenchContext) {
    const out = emptyOutput();
    const size = Math.max(...fixtureSizes(ctx.quick, ctx.options));
    const n = numberOption(ctx.options, 'queries', ctx.quick ? 50 : 200);
    const fx = await indexedCorpus(ctx.root, size, ctx.log, fixtureOptions(ctx.options));
    const note = vectorsNote(fx);
    if (note) out.notes.push(note);
    const db = await lancedb.connect(indexDir(fx));
    try {
      const name = (await db.tableNames()).find((t) => t.startsWith('vectors__'));
      if (!name) throw new Error(`no vectors table in ${indexDir(fx)}`);
      const table = await db.openTable(name);
      const rows = await table.countRows();
      let ann = (await table.listIndices()).filter((i) => i.columns.includes('vector'));
      // Below the engine's threshold (quick fixtures) there is no ANN index to measure: build it with
      // the engine's own maintenance step, so the recall of its index configuration is measured anyway.
      const built = ann.length === 0;
      if (built) {
        await maintain([], table, { vectorIndexThreshold: 0, keepVersionsMs: 60_000 });
        ann = (await table.listIndices()).filter((i) => i.columns.includes('vector'));
      }
      // Deterministic sample of stored vectors as queries.
      const offsets = createRng(11)
        .shuffle(Array.from({ length: rows }, (_, i) => i))
        .slice(0, n);
      const recalls: number[] = [];
      const annMs: number[] = [];
      const exactMs: number[] = [];
      for (const off of offsets) {
        const [row] = (await table.query().select(['vector']).offset(off).limit(1).toArray()) as {
          vector: ArrayLike<number>;
        }[];
        const v = Float32Array.from(row.vector);
        let t0 = performance.now();
        const approx = await vectorLeg(new VectorReads(table), v, undefined, 10, 1);
        annMs.push(performance.now() - t0);
        t0 = performance.now();
        const exact = (await table
          .query()
          .nearestTo(v)
          .distanceType('cosine')
          .bypassVectorIndex()
          .select(['id', '_distance'])
          .limit(10)
          .toArray()) as { id: string }[];
        exactMs.push(performance.now() - t0);
        const truth = new Set(exact.map((r) => r.id));
        recalls.push(approx.ids.filter((id) => truth.has(id)).length / Math.max(1, truth.size));
      }
      const recall = recalls.reduce((s, r) => s + r, 0) / Math.max(1, recalls.length);
      out.figures = {
        rows,
        vectors: fx.vectors,
        queries: offsets.length,
        index_built_by_bench: built,
        index: ann.map((i) => ({ name: i.name, type: i.indexType })),
        recall_at_10: round(recall, 4),
        ann_ms: roundSpread(spread(annMs), 2),
        exact_ms: roundSpread(spread(exactMs), 2),
      };
      out.targets.push(target('recall10', `vector search recall@10 vs exact at ${rows} vectors`, recall, '>=', 0.95));
      out.tables.push({
        title: `Vector search at ${rows} vectors (${ann.length ? ann.map((i) => i.indexType).join(', ') : 'no ANN index: exact scan'})`,
        columns: ['queries', 'recall@10', 'engine leg p50 ms', 'engine leg p95 ms', 'exact p50 ms', 'exact p95 ms'],
        rows: [
          [
            offsets.length,
            round(recall, 4),
            round(spread(annMs).p50, 2),
            round(spread(annMs).p95, 2),
            round(spread(exactMs).p50, 2),
            round(spread(exactMs).p95, 2),
          ],
        ],
      });
      if (built)
        out.notes.push(
          `At ${rows} rows the engine keeps no ANN index (it scans exactly); the bench built one with the engine's maintain() to measure its configuration.`,
        );
      if (!ann.length) out.notes.push('No ANN index could be built: recall is 1 by construction (exact scan).');
      return out;
    } finally {
      db.close();
    }
  },
};
