// The bench's port of eval.mjs on hand-computed cases (tests must not read ../shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalQuery, evaluate, parseQrels, runToTsv, type Run } from '../../bench/quality/metrics.js';

const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

test('nDCG@10 uses linear gains and the ideal ordering of every judged document', () => {
  const judged = new Map([
    ['a', 2],
    ['b', 1],
    ['c', 0],
  ]);
  const s = evalQuery(judged, [
    { did: 'b', score: 3 },
    { did: 'x', score: 2 },
    { did: 'a', score: 1 },
  ]);
  const dcg = 1 / Math.log2(2) + 2 / Math.log2(4);
  const idcg = 2 / Math.log2(2) + 1 / Math.log2(3);
  close(s.ndcg10, dcg / idcg);
  close(s.mrr10, 1);
  close(s.recall100, 1);
});

test('ties are broken by doc id descending, duplicates keep their first line', () => {
  const judged = new Map([['a', 1]]);
  // Same score: 'b' sorts before 'a', so the relevant doc is at rank 2.
  close(
    evalQuery(judged, [
      { did: 'a', score: 1 },
      { did: 'b', score: 1 },
    ]).mrr10,
    0.5,
  );
  close(
    evalQuery(judged, [
      { did: 'b', score: 5 },
      { did: 'a', score: 4 },
      { did: 'b', score: 0 },
    ]).mrr10,
    0.5,
  );
});

test('MRR@10 and Recall@100 stop at their cut-offs', () => {
  const judged = new Map([['r', 1]]);
  const list = Array.from({ length: 150 }, (_, i) => ({ did: `d${i}`, score: 1000 - i }));
  list.splice(10, 0, { did: 'r', score: 990 - 0.5 }); // rank 11
  const s = evalQuery(judged, list);
  assert.equal(s.mrr10, 0);
  assert.equal(s.recall100, 1);
  const late = list.filter((d) => d.did !== 'r').concat([{ did: 'r', score: -1 }]);
  assert.equal(evalQuery(judged, late).recall100, 0);
});

test('a judged query missing from the run scores 0; a query without relevant docs is skipped', () => {
  const qrels = parseQrels('query-id\tcorpus-id\tscore\nq1\ta\t1\nq2\tb\t1\nq3\tc\t0\n');
  const run: Run = new Map([['q1', [{ did: 'a', score: 1 }]]]);
  const s = evaluate(qrels, run);
  assert.equal(s.queries_evaluated, 2);
  assert.equal(s.queries_missing_from_run, 1);
  close(s.ndcg10, 0.5);
  close(s.mrr10, 0.5);
});

test('the run file is in the layout eval.mjs reads', () => {
  const tsv = runToTsv(
    new Map([
      [
        'q1',
        [
          { did: 'a', score: 0.5 },
          { did: 'b', score: 0.25 },
        ],
      ],
    ]),
  );
  assert.equal(tsv, 'query-id\tdoc-id\trank\tscore\nq1\ta\t1\t0.5\nq1\tb\t2\t0.25\n');
});
