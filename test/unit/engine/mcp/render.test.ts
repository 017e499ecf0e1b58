// Unit: the text renderings agents read (main/engine/mcp/render.ts), from hand-made results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONTENT_NOTE,
  renderError,
  renderFreshness,
  renderGrep,
  renderJson,
  renderRead,
  renderSearch,
} from '../../../../main/engine/mcp/render.js';
import type { ModelFolderFreshness, ModelSearchResult } from '../../../../main/common/results.js';

const fresh: ModelFolderFreshness = {
  path: '/n',
  state: 'fresh',
  vector_coverage: 1,
  updated_at: '2025-01-02T03:04:05Z',
  pending_changes: 0,
};

test('freshness: a fresh folder reads plainly; a stale or pending one warns first', () => {
  assert.equal(renderFreshness([fresh]), 'Freshness:\n- /n: fresh, vectors 100%, updated 2025-01-02T03:04:05Z');
  const stale = renderFreshness([
    fresh,
    { ...fresh, path: '/m', state: 'indexing', vector_coverage: 0.456, updated_at: null, pending_changes: 3 },
  ]);
  assert.equal(stale.split('\n')[0], 'Freshness (some folders are not fresh; recent edits may be missing):');
  assert.match(stale, /- \/m: indexing, vectors 46%, updated never, 3 changes pending/);
  // Control: pending changes alone make the header warn, even when the state is fresh.
  assert.match(renderFreshness([{ ...fresh, pending_changes: 1 }]), /^Freshness \(some folders/);
  assert.equal(renderFreshness([]), 'Freshness: no folders indexed.');
});

const result = (extra: Partial<ModelSearchResult> = {}): ModelSearchResult => ({
  note: CONTENT_NOTE,
  mode: 'hybrid',
  folders: [fresh],
  hits: [
    { path: '/n/a.md', start_line: 3, end_line: 5, score: 0.91234, snippet: '3│ alpha', heading: 'Intro' },
    {
      path: '/n/b.ts',
      start_line: 10,
      end_line: 12,
      score: 0.5,
      snippet: '10│ beta',
      symbol: 'beta',
      other_ranges: [
        { start_line: 40, end_line: 41 },
        { start_line: 2, end_line: 2, page: 4 },
      ],
    },
    { path: '/n/a.md', start_line: 20, end_line: 21, score: 0.25, snippet: '20│ gamma', page: 2 },
  ],
  hits_omitted: 0,
  ...extra,
});

test('search: freshness first, then hits grouped by file with line ranges and scores', () => {
  const text = renderSearch(result());
  const lines = text.split('\n');
  assert.equal(lines[0], 'Freshness:');
  assert.equal(lines[2], `Mode hybrid; 3 hits in 2 files. ${CONTENT_NOTE}`);
  assert.equal(text.match(/^## \/n\/a\.md$/gm)?.length, 1, 'one heading per file');
  assert.ok(text.indexOf('## /n/a.md') < text.indexOf('## /n/b.ts'), 'files in order of their best hit');
  assert.match(text, /lines 3-5 \(score 0\.912, § Intro\)\n3│ alpha/);
  assert.match(text, /page 2, lines 20-21 \(score 0\.250\)\n20│ gamma/);
  assert.match(text, /lines 10-12 \(score 0\.500, symbol beta, also lines 40-41, p4:2-2\)/);
  // The third hit is under a.md, before b.ts's heading.
  assert.ok(text.indexOf('20│ gamma') < text.indexOf('## /n/b.ts'));
});

test('search: no hits says so, unless hits were left out; a remedy and abstaining legs are named', () => {
  assert.match(renderSearch(result({ hits: [] })), /\nNo hits\.$/);
  const omitted = renderSearch(result({ hits: [], hits_omitted: 4, remedy: 'raise max_chars' }));
  assert.ok(!omitted.includes('No hits.'));
  assert.match(omitted, /… raise max_chars$/);
  assert.match(
    renderSearch(result({ legs_abstained: [{ leg: 'vector', reason: 'the query has no meaning the model knows' }] })),
    /The vector leg abstained: the query has no meaning the model knows\./,
  );
});

test('read: the range, the total and truncation come before the content', () => {
  const base = {
    path: '/n/a.md',
    start_line: 1,
    end_line: 2,
    total_lines: 9,
    truncated: false,
    content: '1│ a\n2│ b',
    note: CONTENT_NOTE,
  };
  assert.equal(renderRead(base), `/n/a.md lines 1-2 of 9. ${CONTENT_NOTE}\n1│ a\n2│ b`);
  assert.match(
    renderRead({ ...base, truncated: true, page: 3 }),
    /^\/n\/a\.md page 3, lines 1-2 of 9 \(truncated: ask for a later range\)\./,
  );
});

test('grep: one line per match, and what was left out is counted', () => {
  const r = {
    matches: [{ path: '/n/a.md', line: 4, text: 'tide' }],
    files_searched: 12,
    truncated: false,
    matches_omitted: 0,
    note: CONTENT_NOTE,
  };
  assert.equal(renderGrep(r), `1 matches in 12 files searched. ${CONTENT_NOTE}\n/n/a.md:4: tide`);
  const more = renderGrep({ ...r, truncated: true, matches_omitted: 7 });
  assert.match(more, /\(truncated: narrow the pattern or raise max_matches\)/);
  assert.match(more, /\n… 7 more matches left out/);
});

test('errors and JSON: code, message and remedy; JSON cut at max_chars with a marker', () => {
  assert.equal(renderError({ code: 'not_found', message: 'no such file' }), 'Error not_found: no such file');
  assert.equal(
    renderError({ code: 'timeout', message: 'slow', remedy: 'narrow it' }),
    'Error timeout: slow\nRemedy: narrow it',
  );
  assert.equal(renderJson('Status', { a: 1 }, 1000), 'Status\n{\n  "a": 1\n}');
  const cut = renderJson('Jobs', { list: 'x'.repeat(500) }, 100);
  assert.ok(cut.length <= 100, `${cut.length}`);
  assert.match(cut, /… \(truncated\)$/);
});
