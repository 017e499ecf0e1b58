// Unit: the gate searches pass through (main/engine/kernel/gate.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Gate } from '../../../../main/engine/kernel/gate.js';

/** Runs `n` tasks through the gate, each waiting for a tick; returns the most that ran at once and the start order. */
async function peak(gate: Gate, n: number): Promise<{ most: number; order: number[] }> {
  let now = 0;
  let most = 0;
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      gate.run(async () => {
        order.push(i);
        most = Math.max(most, ++now);
        await new Promise((r) => setTimeout(r, 5));
        now--;
      }),
    ),
  );
  return { most, order };
}

test('no more than the limit run at once, in arrival order; a larger limit is the control', async () => {
  const four = await peak(new Gate(4), 20);
  assert.equal(four.most, 4);
  assert.deepEqual(
    four.order,
    Array.from({ length: 20 }, (_, i) => i),
  );
  assert.equal((await peak(new Gate(20), 20)).most, 20, 'the control: the count can exceed 4');
});

test('a failing holder gives its place back', async () => {
  const gate = new Gate(1);
  await assert.rejects(
    gate.run(async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await gate.run(async () => 7), 7);
  assert.deepEqual(gate.load, { active: 0, waiting: 0 });
});

test('a holder waiting outside lets the next one in, then waits its turn to come back', async () => {
  const gate = new Gate(1);
  const events: string[] = [];
  let release!: () => void;
  const waiting = new Promise<void>((r) => (release = r));
  const first = gate.run(async () => {
    events.push('first in');
    await gate.outside(() => waiting);
    events.push('first back');
  });
  const second = gate.run(async () => {
    events.push('second in');
    release();
    await new Promise((r) => setTimeout(r, 5));
    events.push('second out');
  });
  await Promise.all([first, second]);
  assert.deepEqual(events, ['first in', 'second in', 'second out', 'first back']);
  assert.deepEqual(gate.load, { active: 0, waiting: 0 });
});
