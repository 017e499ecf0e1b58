// FolderAccess.lexicalRel answers the walk's normal names by a prefix test; every other name by
// path.resolve and relativeInside. Both ways must give the same answer for every name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAbsolute, normalize, resolve } from 'node:path';
import { FolderAccess } from '../../../../main/engine/sources/access.js';
import { relativeInside } from '../../../../main/engine/kernel/scope.js';

const SEGMENTS = ['', '.', '..', 'x', '..x', 'x..', '...', '.x', 'b', 'é'];

function* names(depth: number): Generator<string> {
  if (depth === 0) return;
  for (const s of SEGMENTS) {
    yield s;
    for (const rest of names(depth - 1)) yield `${s}/${rest}`;
  }
}

test(
  'lexicalRel agrees with resolve + relativeInside on normal and odd names',
  { skip: process.platform === 'win32' },
  () => {
    let checked = 0;
    for (const root of ['/a/b', '/a/b/', '/a//b', '/', '/a/b/.']) {
      const access = new FolderAccess({ path: root }, { maxFileBytes: 1, respectGitignore: false, extraExcludes: [] });
      for (const pre of ['/a/b/', '/a/b', '/a/', '/', '/a/bb/', 'a/b/', '/a//b/'])
        for (const name of names(3))
          for (const abs of [pre + name, `${pre + name}/`]) {
            const want = isAbsolute(abs) ? relativeInside(normalize(root), resolve(abs)) : null;
            assert.equal(access.lexicalRel(abs), want, JSON.stringify({ root, abs }));
            checked++;
          }
    }
    assert.ok(checked > 50_000);
  },
);
