// Background maintenance against a real commit conflict: a second LanceDB connection to the same
// table deletes rows while maintenance compacts it, so the compaction's commit is preempted
// ("Retryable commit conflict ... preempted by concurrent transaction Delete"). Maintenance must
// retry and succeed, and neither the delete nor any other row may be lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lancedb from '@lancedb/lancedb';
import { maintain } from '../../main/engine/index/maintenance.js';
import { conflictRetries } from '../../main/engine/index/retry.js';
import { tempDir } from '../helpers/engine.js';

/** Small appends make many fragments, so compaction has work that takes a while to commit. */
const FRAGMENTS = 150;
/** The race is real, so one round may miss it (about one in three did when measured); many rounds will not. */
const ROUNDS = 12;

test(
  'maintenance retries a commit conflict with a concurrent writer and succeeds, losing no row',
  { timeout: 300_000 },
  async () => {
    const dir = await tempDir('maint-conflict');
    // Both see every commit at once, as the engine's own connection does.
    const mine = await lancedb.connect(dir.dir, { readConsistencyInterval: 0 });
    const other = await lancedb.connect(dir.dir, { readConsistencyInterval: 0 });
    try {
      const table = await mine.createTable('t', [{ id: -1, text: 'seed' }]);
      const theirs = await other.openTable('t');
      const expected = new Set<number>([-1]);
      let next = 0;
      let conflictedRounds = 0;
      for (let round = 0; round < ROUNDS && conflictedRounds < 2; round++) {
        for (let i = 0; i < FRAGMENTS; i++) {
          await table.add([{ id: next, text: `row ${next}` }]);
          expected.add(next++);
        }
        const before = conflictRetries.count;
        const victim = next - 1 - (round % FRAGMENTS);
        // Maintenance starts compacting; the other writer commits a delete into those fragments.
        const maintenance = maintain([table], null, {
          vectorIndexThreshold: Number.MAX_SAFE_INTEGER,
          keepVersionsMs: 0,
        });
        const write = (async () => {
          await new Promise((r) => setImmediate(r));
          await theirs.delete(`id = ${victim}`);
        })();
        await Promise.all([maintenance, write]);
        expected.delete(victim);
        if (conflictRetries.count > before) conflictedRounds++;

        const ids = ((await table.query().select(['id']).toArray()) as { id: number }[])
          .map((r) => Number(r.id))
          .sort((a, b) => a - b);
        assert.deepEqual(
          ids,
          [...expected].sort((a, b) => a - b),
          `round ${round}: rows lost or resurrected`,
        );
      }
      assert.ok(
        conflictedRounds > 0,
        `no commit conflict happened in ${ROUNDS} rounds, so the retry was never exercised`,
      );
      // Compaction did its work despite the conflicts: the many appends are folded together.
      const stats = await table.stats();
      assert.ok(stats.fragmentStats.numFragments < FRAGMENTS, JSON.stringify(stats.fragmentStats));
    } finally {
      mine.close();
      other.close();
      await dir.cleanup();
    }
  },
);
