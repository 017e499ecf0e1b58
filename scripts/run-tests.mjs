#!/usr/bin/env node
// Runs the node:test tier (test/**/*.test.ts but the browser suite) with Node's test runner through
// tsx. Node 20's --test takes no globs, so the files are listed here (scripts/test-files.mjs).
// `--slow` runs the slow tier instead, `--all` both; other arguments are path substrings to filter.
// One run shares one scratch folder (CAIRN_TEST_RUN_DIR): the fixture index the MCP/HTTP suites
// copy is built there once, by the first suite that needs it (test/helpers/shared-fixture.ts).
// The suites' own temp folders go there too (TMPDIR): a run leaves nothing behind in the system's.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { listTestFiles } from './test-files.mjs';

const root = new URL('..', import.meta.url).pathname;
const files = listTestFiles(root, process.argv.slice(2));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const own = !process.env.CAIRN_TEST_RUN_DIR;
const runDir = process.env.CAIRN_TEST_RUN_DIR ?? mkdtempSync(join(tmpdir(), 'cairn-test-run-'));
const scratch = join(runDir, 'tmp');
mkdirSync(scratch, { recursive: true });
// Shared like the system's temp folder: suites run engines as another user (nobody) to test
// permissions, and those need to reach it (tsx's cache, their HOME, their fixtures' parent).
chmodSync(runDir, 0o711);
chmodSync(scratch, 0o1777);
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      CAIRN_TEST_RUN_DIR: runDir,
      TMPDIR: scratch,
      LANCEDB_LOG: process.env.LANCEDB_LOG ?? 'error',
    },
  },
);
if (own) rmSync(runDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
process.exit(r.status ?? 1);
