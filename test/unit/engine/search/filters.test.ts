// Unit: the search filters (main/engine/search/filters.ts): SQL prefilters, globs, folder scope.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dateClause, globMatcher, inFolders, whereClause } from '../../../../main/engine/search/filters.js';
import { validateSearch } from '../../../../main/engine/search/validate.js';

const search = (extra: Record<string, unknown> = {}) =>
  validateSearch({ query: 'q', ...extra }, { mode: 'hybrid', topK: 10 });

test('no filter at all is no clause (every folder, no folder clause)', () => {
  assert.equal(whereClause(search(), null), undefined);
});

test('folders, kinds, extensions and dates become one quoted AND clause', () => {
  const s = search({ file_types: ['markdown', 'ts'], modified_after: '2024-01-01T00:00:00Z' });
  const where = whereClause(s, ["/home/o'neil/notes"]);
  assert.equal(
    where,
    `(folder IN ('/home/o''neil/notes')) AND (kind IN ('markdown') OR ext IN ('ts')) AND ((mtime >= ${Date.parse('2024-01-01T00:00:00Z')}))`,
  );
  // Dates left out on demand (vectors keep the mtime of when they were computed).
  assert.equal(whereClause(s, null, false), `(kind IN ('markdown') OR ext IN ('ts'))`);
  assert.equal(
    dateClause(search({ modified_before: '2024-02-01T00:00:00Z' })),
    `(mtime <= ${Date.parse('2024-02-01T00:00:00Z')})`,
  );
});

test('an empty folder list matches nothing rather than everything', () => {
  assert.equal(whereClause(search(), []), '(false)');
});

test('globs: the last matching glob decides; a bare name matches at any depth', () => {
  const m = globMatcher(['src/**', '!src/vendor/**', 'src/vendor/keep.ts'])!;
  assert.equal(m('src/a.ts'), true);
  assert.equal(m('src/vendor/x.ts'), false);
  assert.equal(m('src/vendor/keep.ts'), true);
  assert.equal(m('docs/a.md'), false);
  const base = globMatcher(['*.md'])!;
  assert.equal(base('deep/down/readme.md'), true);
  assert.equal(base('deep/down/readme.mdx'), false);
});

test('globs: only negative globs include everything else; dotfiles are matched like any file', () => {
  const m = globMatcher(['!**/*.lock'])!;
  assert.equal(m('a/b.ts'), true);
  assert.equal(m('a/yarn.lock'), false);
  assert.equal(globMatcher(['**/*.env'])!('.config/.secret.env'), true);
  assert.equal(globMatcher([]), null);
});

test("folder scope: a sibling whose name starts with the folder's is outside it", () => {
  const inside = inFolders(['/data/notes', '/srv/code/']);
  assert.equal(inside('/data/notes/a.md'), true);
  assert.equal(inside('/srv/code/x/y.ts'), true);
  assert.equal(inside('/data/notes-evil/loot.md'), false);
  assert.equal(inside('/data/notes'), false, 'the folder itself is not a file in it');
  assert.equal(inFolders([])('/data/notes/a.md'), false);
});
