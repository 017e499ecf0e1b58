// The set of inputs an embedding pass has embedded: exact for what was added (a miss would embed a
// repeat again, a false "seen" only costs a lookup), compact, and growing past its first table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { InputHashSet } from '../../main/engine/ingest/input-hash-set.js';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

test('every added hash is found, others are not, duplicates count once', () => {
  const set = new InputHashSet();
  const n = 50_000;
  for (let i = 0; i < n; i++) set.add(sha1(`in ${i}`));
  for (let i = 0; i < n; i += 7) set.add(sha1(`in ${i}`));
  assert.equal(set.size, n);
  let missed = 0;
  for (let i = 0; i < n; i++) if (!set.mayHave(sha1(`in ${i}`))) missed++;
  assert.equal(missed, 0);
  // The control: hashes never added are not reported (a false one is a 1 in 2^52 / n chance).
  let seen = 0;
  for (let i = 0; i < n; i++) if (set.mayHave(sha1(`out ${i}`))) seen++;
  assert.equal(seen, 0);
});

test('hashes equal in their first 52 bits are one entry; the all-zero prefix is a key like any', () => {
  const set = new InputHashSet();
  set.add('0000000000000' + 'a'.repeat(27));
  assert.ok(set.mayHave('0000000000000' + 'b'.repeat(27)), 'same prefix: "maybe"');
  assert.ok(!set.mayHave('0000000000001' + 'a'.repeat(27)));
  assert.equal(set.size, 1);
  assert.throws(() => set.add('not a hash'), /not a hex hash/);
});
