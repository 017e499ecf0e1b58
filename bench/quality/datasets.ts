/** Reading the shared test collections (`../shared/datasets/<set>/`) into memory. */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { parseQrels, type Qrels } from './metrics.js';

export const QUALITY_SETS = ['scifact', 'cosqa', 'cranfield', 'medline', 'npl'] as const;

export interface Doc {
  id: string;
  title: string;
  text: string;
}
export interface Query {
  id: string;
  text: string;
}
export interface TestSet {
  name: string;
  docs: Doc[];
  queries: Query[];
  qrels: Qrels;
}

/** Why a set cannot be loaded, or null when every file is there. */
export function missingSetFiles(datasets: string, name: string): string | null {
  const dir = join(datasets, name);
  if (!existsSync(dir)) return `${dir} not found`;
  const corpus = existsSync(join(dir, 'corpus.jsonl')) || existsSync(join(dir, 'corpus.jsonl.gz'));
  if (!corpus) return `${dir}/corpus.jsonl(.gz) not found`;
  for (const f of ['queries.jsonl', 'qrels.tsv']) if (!existsSync(join(dir, f))) return `${dir}/${f} not found`;
  return null;
}

function jsonl<T>(text: string): T[] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

export function loadSet(datasets: string, name: string): TestSet {
  const dir = join(datasets, name);
  const gz = join(dir, 'corpus.jsonl.gz');
  const corpusText = existsSync(gz)
    ? gunzipSync(readFileSync(gz)).toString('utf8')
    : readFileSync(join(dir, 'corpus.jsonl'), 'utf8');
  const docs = jsonl<{ _id: string | number; title?: string; text?: string }>(corpusText).map((d) => ({
    id: String(d._id),
    title: d.title ?? '',
    text: d.text ?? '',
  }));
  const queries = jsonl<{ _id: string | number; text: string }>(readFileSync(join(dir, 'queries.jsonl'), 'utf8')).map(
    (q) => ({
      id: String(q._id),
      text: q.text,
    }),
  );
  return { name, docs, queries, qrels: parseQrels(readFileSync(join(dir, 'qrels.tsv'), 'utf8')) };
}
