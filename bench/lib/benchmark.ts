/** What every benchmark implements, and the context the runner hands it. */
import type { BenchOutput } from './results.js';

export interface BenchContext {
  quick: boolean;
  /** Project root (where package.json is). */
  root: string;
  /** `../shared/datasets` relative to the root, whether or not it exists. */
  datasets: string;
  /** A fresh temporary folder for this benchmark, removed afterwards. */
  tmp: string;
  /** Options after the benchmark names, e.g. `--sets scifact`. */
  options: Map<string, string>;
  log(line: string): void;
}

export interface Benchmark {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<BenchOutput>;
}

/** Thrown when a prerequisite is missing: the run records `skipped` with the reason and goes on. */
export class SkipError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SkipError';
  }
}

/**
 * A real failure that still measured something: the run fails (non-zero exit) but the results file
 * keeps the figures gathered before the failure, so a tuning session does not lose them.
 */
export class PartialFailure extends Error {
  readonly output: BenchOutput;
  constructor(message: string, output: BenchOutput) {
    super(message);
    this.name = 'PartialFailure';
    this.output = output;
  }
}
