// grep's workers run at the engine's priority while batches answer quickly (on a loaded machine a
// lower priority made every ordinary grep wait behind each other thread), and are lowered to nice 5
// once a batch takes longer than DEMOTE_MS, so a pattern that spins yields to the main thread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { CairnError } from '../../main/engine/errors.js';
import { grepFolders } from '../../main/engine/read-grep/grep.js';
import { DEMOTE_MS, GrepPool } from '../../main/engine/read-grep/grep-pool.js';
import type { WalkOptions } from '../../main/engine/sources/index.js';
import { tempDir } from '../helpers/engine.js';
import { writeTree } from '../sources/walk-helpers.js';

const walk: WalkOptions = { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] };
const words = 'the river carried the last of the autumn leaves past the mill and under the old stone bridge';
let root: string;
let cleanup: () => Promise<void>;
const pool = new GrepPool(1);

/** A thread's niceness, from its stat line (the 19th field). */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

before(async () => {
  ({ dir: root, cleanup } = await tempDir('cairn-grep-priority-'));
  await writeTree(join(root, 'prose'), {
    'a.md': Array.from({ length: 20 }, (_, i) => `${words} ${words} ${i}!`).join('\n') + '\n',
  });
  await writeTree(join(root, 'notes'), { 'retry.md': 'The client retries with exponential backoff.\n' });
});

after(async () => {
  pool.close();
  await cleanup();
});

test(
  'an ordinary grep leaves the worker at the engine priority; a spinning pattern lowers it to nice 5',
  { skip: process.platform !== 'linux' && 'thread ids and niceness are read from /proc (Linux)', timeout: 60_000 },
  async () => {
    const own = getPriority();
    const ordinary = await grepFolders({ pattern: 'exponential backoff' }, [{ path: join(root, 'notes') }], walk, pool);
    assert.equal(ordinary.matches.length, 1);
    const [tid] = pool.threadIds;
    assert.ok(tid, 'the worker reported its thread id');
    // Control: a quick batch does not demote.
    assert.equal(niceOf(tid), own);
    const hostile = grepFolders(
      { pattern: '^(\\w+\\s?)*$', regex: true },
      [{ path: join(root, 'prose') }],
      walk,
      pool,
      20_000,
    );
    hostile.catch(() => undefined);
    await new Promise((r) => setTimeout(r, DEMOTE_MS * 4));
    assert.equal(niceOf(tid), Math.max(5, own));
    await assert.rejects(hostile, (err: unknown) => err instanceof CairnError && err.code === 'timeout');
  },
);
