// Unit: a search request checked against the contract and given its defaults (search/validate.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateSearch } from '../../../../main/engine/search/validate.js';
import { CairnError } from '../../../../main/engine/errors.js';
import { DEFAULTS, LIMITS } from '../../../../main/common/requests.js';
import type { SearchRequest } from '../../../../main/common/requests.js';

const defaults = { mode: 'tribrid', topK: 7 } as const;

function refused(req: unknown, key: string): void {
  assert.throws(
    () => validateSearch(req as SearchRequest, defaults),
    (err: unknown) => {
      assert.ok(err instanceof CairnError, String(err));
      assert.equal(err.code, 'invalid_argument');
      assert.equal((err.details as { key?: string } | undefined)?.key, key, err.message);
      return true;
    },
  );
}

test('defaults come from the caller (mode, top_k) and the contract (freshness, max_chars)', () => {
  const v = validateSearch({ query: '  tide tables  ' }, defaults);
  assert.deepEqual(v, {
    queries: ['tide tables'],
    mode: 'tribrid',
    topK: 7,
    folders: null,
    globs: [],
    fileTypes: [],
    modifiedAfter: null,
    modifiedBefore: null,
    minScore: null,
    freshness: DEFAULTS.freshness,
    maxChars: DEFAULTS.maxChars,
    perFile: false,
  });
});

test('given values win over defaults; dates are parsed to epoch ms; query and queries are both kept', () => {
  const v = validateSearch(
    {
      query: 'a',
      queries: ['b', ' '],
      mode: 'sparse',
      top_k: 3,
      modified_after: '2025-03-04T05:06:07Z',
      per_file: true,
      min_score: 0.2,
    },
    defaults,
  );
  assert.deepEqual(v.queries, ['a', 'b']);
  assert.equal(v.mode, 'sparse');
  assert.equal(v.topK, 3);
  assert.equal(v.modifiedAfter, Date.UTC(2025, 2, 4, 5, 6, 7));
  assert.equal(v.perFile, true);
  assert.equal(v.minScore, 0.2);
});

test('each bad field is refused with its own key', () => {
  refused({ query: 'a', top_k: LIMITS.topK.max + 1 }, 'top_k');
  refused({ query: 'a', top_k: 0 }, 'top_k');
  refused({ query: 'a', mode: 'fuzzy' }, 'mode');
  refused({ query: 'a', max_chars: LIMITS.maxChars.min - 1 }, 'max_chars');
  refused({ query: 'a', modified_after: 'yesterday' }, 'modified_after');
  refused({ query: 'a', colour: 'red' }, 'colour');
  refused({ query: 'x'.repeat(LIMITS.queryChars + 1) }, 'query');
  // Control: the same requests at their limits pass.
  assert.equal(
    validateSearch({ query: 'a', top_k: LIMITS.topK.max, max_chars: LIMITS.maxChars.min }, defaults).topK,
    LIMITS.topK.max,
  );
  assert.equal(validateSearch({ query: 'x'.repeat(LIMITS.queryChars) }, defaults).queries[0].length, LIMITS.queryChars);
});
