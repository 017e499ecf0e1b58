// The peers benchmark's index children report their own peak memory, not their parent's: on
// Linux getrusage's maxRSS in a spawned child starts at the parent's resident size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const helper = new URL('../../bench/peers/peak-rss.mjs', import.meta.url).href;

test('a small child spawned by a large parent reports its own peak', { skip: process.platform !== 'linux' }, () => {
  const ballast: Buffer[] = [];
  for (let i = 0; i < 40; i++) ballast.push(Buffer.alloc(10 * 2 ** 20, 1));
  const parentMb = process.memoryUsage().rss / 2 ** 20;
  assert.ok(parentMb > 400, `the parent holds ${parentMb.toFixed(0)} MB`);
  const child = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { peakRssMb } = await import(${JSON.stringify(helper)});
       console.log(JSON.stringify({ peak: peakRssMb(), maxRss: process.resourceUsage().maxRSS / 1024 }));`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(child.status, 0, child.stderr);
  const { peak, maxRss } = JSON.parse(child.stdout) as { peak: number; maxRss: number };
  // Control: getrusage in the same child carries the parent's size, so this test can tell the two apart.
  assert.ok(maxRss > parentMb * 0.8, `maxRSS ${maxRss.toFixed(0)} MB against the parent's ${parentMb.toFixed(0)} MB`);
  assert.ok(peak < 200, `the child's own peak is ${peak.toFixed(0)} MB`);
  // The ballast stays reachable until the child has run.
  assert.equal(ballast.length, 40);
});
