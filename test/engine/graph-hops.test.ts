// The graph leg's one hop on a real engine (real LanceDB, the real built-in model): it reaches
// other files from the text legs' best chunks, never the seed's own file, whose order the text
// legs already decided (a same-file hop outvoted it on CoSQA and the held-out docstring queries).
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
    ['def settle_ledger_rows(group):', '    return list(group)', ''].join('\n'),
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
