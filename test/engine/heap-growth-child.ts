/**
 * A child for heap-growth.test.ts: loads the CLI and runs its entry (`cairn help`) or not, then builds a
 * live set and churns garbage that outlives a scavenge or two (as searches in flight do), and
 * prints the old generation's largest size and what is live at the end on its last line.
 */
import { getHeapSpaceStatistics } from 'node:v8';

// Both load the CLI's modules; only one runs its entry.
const { main } = await import('../../main/engine/cli/main.js');
if (process.argv[2] === 'cli') await main(['help']);
const live: unknown[] = [];
for (let i = 0; i < 300_000; i++) live.push({ i, s: `live ${i}`, a: [i, i + 1] });
const ring: unknown[] = new Array(128).fill(null);
let peak = 0;
for (let round = 0; round < 4000; round++) {
  ring[round % ring.length] = Array.from({ length: 2000 }, (_, k) => ({ k, t: `x${k}` }));
  if (round % 50 === 0)
    peak = Math.max(peak, getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_size);
}
ring.fill(null);
// What is live at the end (the garbage collected), against which the peak is read.
(globalThis as { gc?: () => void }).gc?.();
const liveOld = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;
process.stdout.write(
  `\n${JSON.stringify({ live: live.length, peakOldMb: peak / 2 ** 20, liveOldMb: liveOld / 2 ** 20 })}\n`,
);
