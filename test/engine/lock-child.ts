// A process that tries to take a data folder's lock at a given moment (test/engine/lock.test.ts):
//   lock-child.ts <lock file> <epoch ms to try at> <ms to hold it>
// Prints "took" or "locked", then holds what it took for a while, as a starting engine would.
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineLock } from '../../main/engine/lock.js';
import { CairnError } from '../../main/engine/errors.js';

const [file, at, hold] = process.argv.slice(2);
while (Date.now() < Number(at)) await sleep(Math.min(5, Number(at) - Date.now()));
try {
  const lock = await EngineLock.acquire(file);
  process.stdout.write('took\n');
  await sleep(Number(hold));
  await lock.release();
} catch (err) {
  if (!(err instanceof CairnError) || err.code !== 'engine_locked') throw err;
  process.stdout.write('locked\n');
}
