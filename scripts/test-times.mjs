#!/usr/bin/env node
// Measures the node:test tier file by file: each test file runs in its own `node --test` process
// (spec reporter), two at a time as `scripts/run-tests.mjs` runs them, and the per-file figure is
// the `duration_ms` that reporter prints. The sum of those is the tier's cost on this machine
// whatever else loads it less than wall time does; the wall time is printed beside it.
// Usage: node scripts/test-times.mjs [--slow|--all] [filter...]   (same filters as run-tests.mjs)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listTestFiles } from './test-files.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const files = listTestFiles(root, args);
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// One cache for the whole measurement, as one run of run-tests.mjs has (the shared fixture index).
const cache = process.env.CAIRN_TEST_RUN_DIR ?? mkdtempSync(join(tmpdir(), 'cairn-test-run-'));
const env = { ...process.env, CAIRN_TEST_RUN_DIR: cache, LANCEDB_LOG: process.env.LANCEDB_LOG ?? 'error' };

function runOne(file) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
      cwd: root,
      env,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const ms = Number(/ℹ duration_ms ([\d.]+)/.exec(out)?.[1] ?? NaN);
      const pass = Number(/ℹ pass (\d+)/.exec(out)?.[1] ?? 0);
      const fail = Number(/ℹ fail (\d+)/.exec(out)?.[1] ?? 0);
      resolve({ file, code, ms, wall: performance.now() - started, pass, fail, out });
    });
  });
}

const started = performance.now();
const queue = [...files];
const results = [];
await Promise.all(
  [0, 1].map(async () => {
    while (queue.length > 0) {
      const r = await runOne(queue.shift());
      results.push(r);
      console.log(
        `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.code === 0 ? 'ok  ' : 'FAIL'}  ${r.pass} pass ${r.fail} fail  ${r.file}`,
      );
      if (r.code !== 0)
        console.log(
          r.out
            .split('\n')
            .filter((l) => /✖|Error|assert/i.test(l))
            .slice(0, 20)
            .join('\n'),
        );
    }
  }),
);
const wall = performance.now() - started;
if (!process.env.CAIRN_TEST_RUN_DIR) rmSync(cache, { recursive: true, force: true });
const sum = results.reduce((s, r) => s + (Number.isFinite(r.ms) ? r.ms : r.wall), 0);
const failed = results.filter((r) => r.code !== 0);
console.log(
  `files ${results.length}, tests passed ${results.reduce((s, r) => s + r.pass, 0)}, failed ${results.reduce((s, r) => s + r.fail, 0)}, files failing ${failed.length}`,
);
console.log(
  `sum of per-file duration_ms: ${(sum / 1000).toFixed(1)} s; wall (2 at a time): ${(wall / 1000).toFixed(1)} s`,
);
console.log('slowest:');
for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 15))
  console.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
process.exit(failed.length > 0 ? 1 : 0);
