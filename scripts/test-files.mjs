// The node:test files of each tier, shared by run-tests.mjs and test-times.mjs.
// The slow tier holds what is slow by design: crash loops, fast-check properties, the huge
// folder and the disk-full suites (tmpfs); `npm test` runs the fast tier, `npm run test:slow` the rest.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const SLOW = [
  'test/freshness/crash.test.ts',
  'test/freshness/property.test.ts',
  'test/freshness/huge-folder.test.ts',
  'test/freshness/disk-full.test.ts',
  'test/freshness/disk-full-serve.test.ts',
  'test/freshness/ranking-recovery.test.ts',
];

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'e2e' || name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * Test files for `args`: `--slow` the slow tier, `--all` both, otherwise the fast tier; any other
 * argument is a path substring filter (a filter reaches into both tiers, so a slow file can still
 * be run by name).
 */
export function listTestFiles(root, args) {
  const tier = args.includes('--all') ? 'all' : args.includes('--slow') ? 'slow' : 'fast';
  const filters = args.filter((a) => !a.startsWith('--'));
  const all = find(join(root, 'test'))
    .map((f) => relative(root, f))
    .sort();
  if (filters.length > 0) return all.filter((f) => filters.some((x) => f.includes(x)));
  if (tier === 'all') return all;
  return all.filter((f) => SLOW.includes(f) === (tier === 'slow'));
}
