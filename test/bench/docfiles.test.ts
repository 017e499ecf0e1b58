import { test } from 'node:test';
import assert from 'node:assert/strict';
import { docFileName, docFileText, docIdFromPath, wrap } from '../../bench/quality/docfiles.js';
import { hitsToEntries } from '../../bench/quality/search-run.js';
import { subsetOf } from '../../bench/quality/subset.js';

test('document ids survive the trip through a file name', () => {
  for (const id of ['4983', 'MED-12', 'a.b', 'has space', 'x~tricky', '../etc', 'ünï', '.hidden']) {
    const name = docFileName(id, 'md');
    assert.ok(!name.includes('/') && !name.startsWith('.'), name);
    assert.equal(docIdFromPath(`/tmp/docs/${name}`), id);
  }
});

test('a document is scored by its best chunk', () => {
  const e = hitsToEntries([
    { path: '/d/1.md', score: 0.9 },
    { path: '/d/2.md', score: 0.5 },
    { path: '/d/1.md', score: 0.3 },
  ]);
  assert.deepEqual(e, [
    { did: '1', score: 0.9 },
    { did: '2', score: 0.5 },
  ]);
});

test('Markdown documents get the title as heading and wrapped lines', () => {
  const text = docFileText({ id: '1', title: 'A title', text: 'word '.repeat(100) }, 'md');
  assert.ok(text.startsWith('# A title\n\n'));
  assert.ok(text.split('\n').every((l) => l.length <= 100));
  assert.equal(wrap('a b c', 3), 'a b\nc');
  assert.equal(docFileText({ id: '1', title: '', text: 'def f():\n    pass' }, 'py'), 'def f():\n    pass\n');
});

test('the quick subset keeps every judged document and a seeded sample of the rest', () => {
  const docs = Array.from({ length: 100 }, (_, i) => ({ id: String(i), title: '', text: `doc ${i}` }));
  const queries = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, text: `query ${i}` }));
  const qrels = new Map(queries.map((q, i) => [q.id, new Map([[String(i * 3), 1]])]));
  const s = subsetOf({ name: 't', docs, queries, qrels }, 4, 20);
  assert.deepEqual(
    s.queries.map((q) => q.id),
    ['q0', 'q1', 'q2', 'q3'],
  );
  assert.equal(s.docs.length, 20);
  for (const id of ['0', '3', '6', '9']) assert.ok(s.docs.some((d) => d.id === id));
  assert.deepEqual(subsetOf({ name: 't', docs, queries, qrels }, 4, 20).docs, s.docs);
});
