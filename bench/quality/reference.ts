/**
 * The reference BM25 (`../shared/tools/bm25-reference.mjs`: k1 0.9, b 0.4, Lucene-style English
 * analysis) run on exactly the documents and queries the engine sees, in the same benchmark, so
 * every row has its baseline beside it (a quick subset included).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestSet } from './datasets.js';
import type { Run } from './metrics.js';

export function referenceTool(datasets: string): string {
  return join(datasets, '..', 'tools', 'bm25-reference.mjs');
}

/** The reference's run over the set (top 100 per query), or null when the tool is not there. */
export function referenceRun(datasets: string, tmp: string, set: TestSet): Run | null {
  const tool = referenceTool(datasets);
  if (!existsSync(tool)) return null;
  const dir = join(tmp, `reference-${set.name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'corpus.jsonl'),
    set.docs.map((d) => JSON.stringify({ _id: d.id, title: d.title, text: d.text })).join('\n') + '\n',
  );
  writeFileSync(
    join(dir, 'queries.jsonl'),
    set.queries.map((q) => JSON.stringify({ _id: q.id, text: q.text })).join('\n') + '\n',
  );
  const out = execFileSync(process.execPath, [tool, dir, '--top', '100'], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  const run: Run = new Map();
  for (const line of out.split('\n')) {
    const [qid, did, , score] = line.split('\t');
    if (!qid || did === undefined) continue;
    let list = run.get(qid);
    if (!list) run.set(qid, (list = []));
    list.push({ did, score: Number(score) });
  }
  return run;
}
