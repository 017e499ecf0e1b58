// Unit: the one API key rule (main/common/api-key.ts). Every way a key comes in is tested
// against a running engine in test/http/api-key-rule.test.ts; this is the rule itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  API_KEY_MAX_LENGTH,
  API_KEY_MIN_LENGTH,
  apiKeyProblem,
  isValidApiKey,
  keyStorageNotice,
} from '../../../main/common/api-key.js';

const good = 'cairn_' + randomBytes(32).toString('base64url');

test('a generated key and a long hand-made URL-safe key pass', () => {
  assert.equal(apiKeyProblem(good), null);
  assert.equal(apiKeyProblem('Tr0ub4dor-and.horse_battery~staple'), null);
  assert.equal(isValidApiKey(good), true);
});

test('length is bounded on both sides, exactly at the limits', () => {
  const at = (n: number) => 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(20).slice(0, n);
  assert.equal(apiKeyProblem(at(API_KEY_MIN_LENGTH)), null);
  assert.match(
    apiKeyProblem(at(API_KEY_MIN_LENGTH - 1))!,
    new RegExp(`at least ${API_KEY_MIN_LENGTH} characters \\(this one has ${API_KEY_MIN_LENGTH - 1}\\)`),
  );
  const long = at(API_KEY_MAX_LENGTH);
  assert.equal(long.length, API_KEY_MAX_LENGTH);
  assert.equal(apiKeyProblem(long), null);
  assert.match(apiKeyProblem(long + 'x')!, /at most 512/);
});

test('only RFC 3986 unreserved characters: what fits a header and every config format', () => {
  for (const bad of [' ', '"', "'", '\\', '/', '+', '=', '#', '\n', 'é', '$', '{']) {
    assert.match(apiKeyProblem(good.slice(0, 30) + bad + good.slice(30))!, /only letters, digits/, JSON.stringify(bad));
  }
});

test('a short pattern repeated is long but not secret', () => {
  assert.match(apiKeyProblem('a'.repeat(40))!, /short pattern repeated/);
  assert.match(apiKeyProblem('abcabc'.repeat(6))!, /short pattern repeated/);
  // Control: eight distinct characters are enough for the rule.
  assert.equal(apiKeyProblem('abcdefgh'.repeat(4)), null);
  assert.equal(isValidApiKey(42), false);
  assert.equal(isValidApiKey(undefined), false);
});

test('where the key is kept: only the weak stores get a notice', () => {
  assert.match(keyStorageNotice('obfuscated')!, /only obfuscated/);
  assert.match(keyStorageNotice('memory')!, /lost when Cairn stops/);
  for (const s of ['os', 'file', 'env', undefined] as const) assert.equal(keyStorageNotice(s), null);
});
