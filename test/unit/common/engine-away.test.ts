// The desktop shell's "no engine" report, as the page reads it back (main/common/engine-away.ts),
// and the words for each state. Direct calls with hand-made answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEngineAway, engineAwayOf } from '../../../main/common/engine-away.js';

test("the shell's report is read back only when its header names the same state", () => {
  const body = { engine: 'failed', exits: 9, last_exit_code: 3 };
  assert.deepEqual(engineAwayOf('failed', body), body);
  // Anything else is not the shell's word: a plain 503, a proxy's page, a body that disagrees.
  assert.equal(engineAwayOf(null, body), null);
  assert.equal(engineAwayOf('starting', body), null);
  assert.equal(engineAwayOf('failed', undefined), null);
  assert.equal(engineAwayOf('exploded', { ...body, engine: 'exploded' }), null);
  assert.deepEqual(engineAwayOf('starting', { engine: 'starting' }), {
    engine: 'starting',
    exits: 0,
    last_exit_code: null,
  });
});

test('each state in words: a first start is not trouble, a given-up engine says how often and what to do', () => {
  const starting = describeEngineAway({ engine: 'starting', exits: 0, last_exit_code: null });
  assert.equal(starting.severity, 'info');
  assert.match(starting.message, /^Starting the engine/);
  assert.equal(starting.remedy, undefined);
  const restarting = describeEngineAway({ engine: 'restarting', exits: 1, last_exit_code: null });
  assert.match(restarting.message, /stopped once in a row; Cairn starts it again/);
  const failed = describeEngineAway({ engine: 'failed', exits: 9, last_exit_code: 3 });
  assert.equal(failed.severity, 'error');
  assert.equal(failed.pill, 'could not start');
  assert.match(failed.message, /stopped 9 times in a row soon after starting \(last exit code 3\)/);
  assert.match(failed.remedy ?? '', /Restart engine in Cairn's tray menu/);
  assert.doesNotMatch(`${failed.message} ${failed.remedy}`, /npm start/);
});
