/**
 * The engine's processes collect their old generation before it grows far past the live set
 * (kernel/heap-growth.ts): the same allocation pattern, in a process that ran the CLI's entry and
 * in one that did not (the control, V8's default growth), reaches a much smaller old generation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from '../helpers/cli.js';

const run = promisify(execFile);

async function oldGeneration(mode: 'cli' | 'plain'): Promise<{ peakOldMb: number; liveOldMb: number }> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(REPO, 'test/engine/heap-growth-child.ts'), mode],
    { cwd: REPO, maxBuffer: 1 << 24 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as { peakOldMb: number; liveOldMb: number };
}

test("a process that ran the CLI's entry keeps its old generation near the live set", async () => {
  // One after the other: V8's default factor depends on how fast it collects.
  const control = await oldGeneration('plain');
  const tuned = await oldGeneration('cli');
  const says = `old generation at most ${tuned.peakOldMb.toFixed(0)} MB (live ${tuned.liveOldMb.toFixed(0)}) against ${control.peakOldMb.toFixed(0)} MB (live ${control.liveOldMb.toFixed(0)}) by default`;
  // About 46 MB live: tuned about 100 MB, V8's default about 290 MB on this machine.
  assert.ok(control.peakOldMb > 2.5 * control.liveOldMb, `control: V8's default lets it grow; ${says}`);
  assert.ok(tuned.peakOldMb < 0.6 * control.peakOldMb, says);
});
