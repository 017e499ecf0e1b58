// The graph leg's one hop on a real engine (real LanceDB, the real built-in model): it reaches
// other files from the text legs' best chunks, never the seed's own file, whose order the text
// legs already decided (a same-file hop outvoted it on CoSQA and the held-out docstring queries).
// A hop follows an edge the seed chunk holds (a call, or from a definition to its callers), not
// its file's relations; and a name reaches its definition when the query is the name, not a
// sentence that mentions it (both put other chunks above the answer on code-search docstrings).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../main/engine/engine.js';

let engine: Engine;
let folder: string;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const root = await tempDir('graph-hops');
  cleanups.push(root.cleanup);
  folder = join(root.dir, 'code');
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'tours.py'),
    [
      'from ledger import settle_ledger_rows',
      '',
      'def plan_outing(group):',
      '    # glacier meltwater excursions for the visiting party',
      '    rows = settle_ledger_rows(group)',
      '    return round_party(rows)',
      '',
      'def round_party(rows):',
      '    return [r for r in rows if r]',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(folder, 'ledger.py'),
    [
      'def settle_ledger_rows(group):',
      '    # tidal reconciliation of the harbour ledger',
      '    return list(group)',
      '',
      'def audit_fjord_rows(rows):',
      '    # fjord sediment audit, called from nowhere',
      '    return rows',
      '',
      'class SedimentCore:',
      '    pass',
      '',
      'def _drift_gauge(rows):',
      '    return rows',
      '',
    ].join('\n'),
  );
  const t = await tempEngine();
  engine = t.engine;
  cleanups.push(t.cleanup);
  await engine.addFolder({ path: folder });
  await indexNow(engine, folder, 'create');
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test("the graph leg hops to the files a seed calls or imports, never within the seed's own file", async () => {
  const res = await engine.search({ query: 'glacier meltwater excursions', mode: 'tribrid', top_k: 10 });
  const graphPaths = res.hits.filter((h) => h.legs.graph !== undefined).map((h) => h.path);
  // Control: the hop happens, to the imported file, so the check below is not vacuous.
  assert.ok(graphPaths.includes(join(folder, 'ledger.py')), JSON.stringify(res.hits.map((h) => [h.path, h.legs])));
  assert.ok(!graphPaths.includes(join(folder, 'tours.py')), JSON.stringify(res.hits.map((h) => [h.path, h.legs])));
});

const graphHits = (hits: { path: string; start_line: number; legs: { graph?: number } }[]) =>
  hits.filter((h) => h.legs.graph !== undefined).map((h) => `${h.path.slice(folder.length + 1)}:${h.start_line}`);

test('from a definition the graph hops to the chunks that call it, not to every file importing its file', async () => {
  const uncalled = await engine.search({ query: 'fjord sediment audit', mode: 'tribrid', top_k: 10 });
  assert.equal(uncalled.hits[0]?.path, join(folder, 'ledger.py'));
  assert.deepEqual(graphHits(uncalled.hits), [], JSON.stringify(uncalled.hits.map((h) => [h.path, h.legs])));
  // Control: the called definition's seed reaches its caller, plan_outing in tours.py.
  const called = await engine.search({ query: 'tidal reconciliation harbour', mode: 'tribrid', top_k: 10 });
  assert.ok(graphHits(called.hits).includes('tours.py:3'), JSON.stringify(called.hits.map((h) => [h.path, h.legs])));
});

test('a query that is a name gets its definition from the graph; a sentence mentioning the name does not', async () => {
  const named = await engine.search({ query: 'SedimentCore', mode: 'tribrid', top_k: 10 });
  // Control: the name alone reaches the class through the graph.
  assert.ok(graphHits(named.hits).includes('ledger.py:9'), JSON.stringify(named.hits.map((h) => [h.path, h.legs])));
  const sentence = await engine.search({ query: 'returns rows for a SedimentCore audit', mode: 'tribrid', top_k: 10 });
  assert.ok(sentence.hits.length > 0);
  assert.ok(
    !graphHits(sentence.hits).includes('ledger.py:9'),
    JSON.stringify(sentence.hits.map((h) => [h.path, h.legs])),
  );
});

test('words spelling a name reach the private definition of that name (a leading underscore)', async () => {
  const res = await engine.search({ query: 'drift gauge', mode: 'tribrid', top_k: 10 });
  assert.ok(graphHits(res.hits).includes('ledger.py:12'), JSON.stringify(res.hits.map((h) => [h.path, h.legs])));
});

test('the graph read back from the tables, as at open, answers as the one kept in step with the writes', async () => {
  const queries = ['glacier meltwater excursions', 'fjord sediment audit', 'settle_ledger_rows', 'SedimentCore'];
  const answers = async () =>
    Promise.all(
      queries.map(async (query) => graphHits((await engine.search({ query, mode: 'tribrid', top_k: 10 })).hits)),
    );
  const graph = engine.store.graph;
  const kept = { stats: graph.stats(), hits: await answers() };
  assert.ok(kept.hits.flat().length >= 3, `control: the queries reach the graph (${JSON.stringify(kept.hits)})`);
  graph.clear();
  assert.deepEqual(await answers(), [[], [], [], []], 'control: a cleared graph answers nothing');
  await engine.store.loadGraph();
  assert.deepEqual(graph.stats(), kept.stats);
  assert.deepEqual(await answers(), kept.hits);
});
