#!/usr/bin/env node
// Runs every test/**/*.test.ts (but the browser suite) with Node's test runner through tsx.
// Node 20's --test takes no globs, so the files are listed here. Pass paths or substrings to filter.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'e2e' || name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}
const filters = process.argv.slice(2);
const files = find(join(root, 'test'))
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, LANCEDB_LOG: process.env.LANCEDB_LOG ?? 'error' },
});
process.exit(r.status ?? 1);
