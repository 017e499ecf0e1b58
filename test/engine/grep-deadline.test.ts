// A grep's deadline is its own: a worker killed because one call's time was up costs the other
// calls' batches it held a resend, never their result, however many hostile calls share it. One
// worker (as on a one-core machine) makes every batch queue behind the ones before it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CairnError } from '../../main/engine/errors.js';
import { grepFolders } from '../../main/engine/read-grep/grep.js';
import { GrepPool } from '../../main/engine/read-grep/grep-pool.js';
import type { WalkOptions } from '../../main/engine/sources/index.js';
import { tempDir } from '../helpers/engine.js';
import { writeTree } from '../sources/walk-helpers.js';

const walk: WalkOptions = { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] };
const words = 'the river carried the last of the autumn leaves past the mill and under the old stone bridge';
let root: string;
let cleanup: () => Promise<void>;
const pool = new GrepPool(1);

before(async () => {
  ({ dir: root, cleanup } = await tempDir('cairn-grep-deadline-'));
  await writeTree(join(root, 'prose'), {
    'a.md': Array.from({ length: 20 }, (_, i) => `${words} ${words} ${i}!`).join('\n') + '\n',
  });
  await writeTree(join(root, 'notes'), { 'retry.md': 'The client retries with exponential backoff.\n' });
});

/** Waits until `n` batches are with the pool (sent, not yet answered). */
async function batchesOut(n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (pool.pending < n) {
    assert.ok(Date.now() < deadline, `only ${pool.pending} of ${n} batches reached the pool in 10 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

after(async () => {
  pool.close();
  await cleanup();
});

test(
  'an ordinary grep queued behind two hostile ones on the only worker answers; each hostile one gets `timeout`',
  { timeout: 120_000 },
  async () => {
    const settled: string[] = [];
    const hostile = (ms: number) =>
      grepFolders({ pattern: '^(\\w+\\s?)*$', regex: true }, [{ path: join(root, 'prose') }], walk, pool, ms).then(
        () => settled.push(`hostile ${ms} finished`),
        (err: unknown) => {
          assert.ok(err instanceof CairnError && err.code === 'timeout', String(err));
          settled.push(`hostile ${ms} timeout`);
        },
      );
    // Each call is started once the one before has its batch out: three concurrent walks may finish
    // in any order, and the order of the batches on the worker is what this test is about.
    const first = hostile(1500);
    await batchesOut(1);
    const second = hostile(3000);
    await batchesOut(2);
    const ordinary = grepFolders(
      { pattern: 'exponential backoff' },
      [{ path: join(root, 'notes') }],
      walk,
      pool,
      60_000,
    ).then((r) => {
      settled.push('ordinary answered');
      return r;
    });
    const [, , result] = await Promise.all([first, second, ordinary]);
    assert.deepEqual(
      result.matches.map((m) => [m.path.endsWith('retry.md'), m.line]),
      [[true, 1]],
    );
    // Control: the ordinary batch really waited behind both kills (one worker, messages in order).
    assert.deepEqual(settled, ['hostile 1500 timeout', 'hostile 3000 timeout', 'ordinary answered']);
  },
);
