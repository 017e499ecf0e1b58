/**
 * The shape of `bench/results/<name>.json`, shared by every benchmark, the report writer and the
 * README table. Benchmarks return tables and chart series rather than Markdown so that the report
 * can be regenerated from the files alone, on any machine, without re-running anything.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MachineInfo } from './machine.js';

export type Op = '<=' | '>=';

/** One target of issue 6, as measured. `ratio` is measured / limit, so <= 1 is good for `<=`. */
export interface TargetResult {
  id: string;
  description: string;
  measured: number;
  limit: number;
  op: Op;
  unit: string;
  met: boolean;
  ratio: number;
}

export interface Table {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  note?: string;
}

export interface Chart {
  /** File-name-safe id; the SVG is written to `bench/results/<bench>-<id>.svg`. */
  id: string;
  title: string;
  unit: string;
  bars: { label: string; value: number; reference?: boolean }[];
}

/** What a benchmark's run() returns. */
export interface BenchOutput {
  figures: Record<string, unknown>;
  targets: TargetResult[];
  tables: Table[];
  charts: Chart[];
  notes: string[];
}

export type BenchStatus = 'ok' | 'skipped' | 'failed';

export interface ResultFile extends Partial<BenchOutput> {
  name: string;
  status: BenchStatus;
  reason?: string;
  date: string;
  commit: string;
  quick: boolean;
  duration_s: number;
  machine: MachineInfo;
  args: string[];
}

export function target(
  id: string,
  description: string,
  measured: number,
  op: Op,
  limit: number,
  unit = '',
): TargetResult {
  const met = Number.isFinite(measured) && (op === '<=' ? measured <= limit : measured >= limit);
  const ratio = limit === 0 ? Number.NaN : Math.round((measured / limit) * 1000) / 1000;
  return { id, description, measured: Math.round(measured * 10000) / 10000, limit, op, unit, met, ratio };
}

export function emptyOutput(): BenchOutput {
  return { figures: {}, targets: [], tables: [], charts: [], notes: [] };
}

export function writeResult(dir: string, result: ResultFile): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${result.name}.json`);
  writeFileSync(file, JSON.stringify(result, null, 1) + '\n');
  return file;
}

/** Every results file in the folder, by name; files that do not parse are reported, not fatal. */
export function readResults(dir: string): { results: ResultFile[]; unreadable: string[] } {
  const results: ResultFile[] = [];
  const unreadable: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return { results, unreadable };
  }
  for (const n of names) {
    try {
      const parsed = JSON.parse(readFileSync(join(dir, n), 'utf8')) as ResultFile;
      if (typeof parsed.name === 'string' && typeof parsed.status === 'string') results.push(parsed);
      else unreadable.push(n);
    } catch {
      unreadable.push(n);
    }
  }
  return { results, unreadable };
}
