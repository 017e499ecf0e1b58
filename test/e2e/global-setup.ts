// The specs' temp folders (data folders, fixture trees, Chromium's profile) go into one scratch
// folder per run, removed at its end: the workers Playwright starts after this inherit TMPDIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function globalSetup(): () => void {
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-run-'));
  process.env.TMPDIR = scratch;
  return () => rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
