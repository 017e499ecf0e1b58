// Unit: query parameters read by a route's schema (json-schema.ts fromQuery), and the admin
// client's parameter types read from the same schemas (checked by the compiler: a drift is a
// typecheck failure, and the values below are what the reader gives at run time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_API, type AdminRequest } from '../../../main/common/admin-api.js';
import { fromQuery } from '../../../main/common/json-schema.js';
import type { FileListShow } from '../../../main/common/files.js';

const files = ADMIN_API.folderFiles.request;
const q = (s: string) => new URLSearchParams(s);

test('numbers and booleans arrive as text and are read as the schema types; empty is not given', () => {
  assert.deepEqual(fromQuery(files, q('path=/f&offset=5&limit=20&show=errors&q=')), {
    ok: true,
    value: { path: '/f', offset: 5, limit: 20, show: 'errors' },
  });
  for (const [raw, value] of [
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ] as const)
    assert.deepEqual(fromQuery(ADMIN_API.apiKey.request, q(`reveal=${raw}`)), { ok: true, value: { reveal: value } });
  assert.deepEqual(fromQuery(ADMIN_API.apiKey.request, q('reveal=')), { ok: true, value: {} });
});

test('a malformed, unknown, repeated or missing parameter is an issue naming it', () => {
  for (const [s, key] of [
    ['path=/f&offset=abc', 'offset'],
    ['path=/f&offset=-1', 'offset'],
    ['path=/f&limit=501', 'limit'],
    ['path=/f&show=some', 'show'],
    ['path=/f&path=/g', 'path'],
    ['path=/f&nope=1', 'nope'],
    ['offset=1', 'path'],
  ] as const) {
    const read = fromQuery(files, q(s));
    assert.equal(read.ok ? 'accepted' : read.issue.key, key, s);
    if (!read.ok) assert.match(read.issue.message, new RegExp(key));
  }
  const bad = fromQuery(ADMIN_API.clients.request, q('reveal=yes'));
  assert.equal(bad.ok ? 'accepted' : bad.issue.message, 'reveal must be a boolean, got "yes"');
  // Control: the well-formed neighbours of the refused ones are accepted.
  for (const s of ['path=/f&offset=0', 'path=/f&limit=500', 'path=/f&show=skipped'])
    assert.equal(fromQuery(files, q(s)).ok, true, s);
});

type Is<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

test("the client's parameter types are the schemas' types", () => {
  const checks: [
    Is<AdminRequest<'folderFiles'>['offset'], number | undefined>,
    Is<AdminRequest<'folderFiles'>['show'], FileListShow | undefined>,
    Is<AdminRequest<'folderFiles'>['path'], string>,
    Is<AdminRequest<'apiKey'>, { reveal?: boolean }>,
    Is<AdminRequest<'clients'>, { reveal?: boolean }>,
    Is<AdminRequest<'browse'>, { path?: string }>,
    // Control: the check tells types apart (a string offset is not the declared type).
    Is<AdminRequest<'folderFiles'>['offset'], string | undefined>,
  ] = [true, true, true, true, true, true, false];
  assert.deepEqual(checks, [true, true, true, true, true, true, false]);
});
