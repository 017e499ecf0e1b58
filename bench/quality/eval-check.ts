/**
 * Cross-check of the ported metrics against ../shared/datasets/eval.mjs itself, on the same run
 * file: if the two ever disagree, the port is wrong and no figure of this benchmark can be trusted.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Qrels, Run, Summary } from './metrics.js';
import { runToTsv } from './metrics.js';

export function qrelsToTsv(qrels: Qrels): string {
  const lines = ['query-id\tcorpus-id\tscore'];
  for (const [qid, m] of qrels) for (const [did, g] of m) lines.push(`${qid}\t${did}\t${g}`);
  return lines.join('\n') + '\n';
}

/** Returns null when eval.mjs is absent; throws when it disagrees with `ours`. */
export function checkWithEvalMjs(
  datasets: string,
  dir: string,
  label: string,
  qrels: Qrels,
  run: Run,
  ours: Summary,
): string | null {
  const script = join(datasets, 'eval.mjs');
  if (!existsSync(script)) return null;
  const qrelsFile = join(dir, `${label}.qrels.tsv`);
  const runFile = join(dir, `${label}.run.tsv`);
  writeFileSync(qrelsFile, qrelsToTsv(qrels));
  writeFileSync(runFile, runToTsv(run));
  const out = JSON.parse(
    execFileSync(process.execPath, [script, qrelsFile, runFile, '--json'], { encoding: 'utf8' }),
  ) as Record<string, number>;
  const pairs: [string, number, number][] = [
    ['nDCG@10', out['nDCG@10'], ours.ndcg10],
    ['Recall@100', out['Recall@100'], ours.recall100],
    ['MRR@10', out['MRR@10'], ours.mrr10],
  ];
  for (const [name, theirs, mine] of pairs) {
    if (Math.abs(theirs - mine) > 1e-9)
      throw new Error(`${label}: eval.mjs says ${name} ${theirs}, the bench's port says ${mine}`);
  }
  return runFile;
}
