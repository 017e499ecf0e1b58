/** Every benchmark, in the order `npm run bench` runs them (cheap and independent ones first). */
import type { Benchmark } from '../lib/benchmark.js';
import { grepBenchmark } from './grep.js';
import { indexingBenchmark } from './indexing.js';
import { latencyBenchmark } from './latency.js';
import { vectorRecallBenchmark } from './vector-recall.js';
import { mcpBenchmark } from './mcp.js';
import { concurrencyBenchmark } from './concurrency.js';
import { indexingRssBenchmark } from './indexing-rss.js';
import { freshnessBenchmark } from './freshness.js';
import { startupBenchmark } from './startup.js';
import { qualityBenchmark } from './quality.js';
import { multilingualBenchmark } from './multilingual.js';
import { codeSearchBenchmark } from './code-search.js';
import { qualityMixedBenchmark } from './quality-mixed.js';
import { peersBenchmark } from './peers.js';
import { soakBenchmark } from './soak.js';

export const BENCHMARKS: readonly Benchmark[] = [
  grepBenchmark,
  indexingBenchmark,
  latencyBenchmark,
  vectorRecallBenchmark,
  mcpBenchmark,
  concurrencyBenchmark,
  indexingRssBenchmark,
  peersBenchmark,
  freshnessBenchmark,
  soakBenchmark,
  startupBenchmark,
  qualityBenchmark,
  multilingualBenchmark,
  codeSearchBenchmark,
  qualityMixedBenchmark,
];
