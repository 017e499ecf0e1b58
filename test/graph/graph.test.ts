import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphIndex, identifiers } from '../../main/engine/graph/graph.js';
import { resolveTarget } from '../../main/engine/graph/resolve.js';
import type { EdgeRow, NodeRow } from '../../main/engine/index/schema.js';

const F = '/p';
const node = (path: string, name: string, kind: string, line: number): NodeRow => ({
  id: `${path}:${name}`,
  folder: F,
  path,
  kind,
  name,
  start_line: line,
  end_line: line + 3,
});
const edge = (path: string, kind: string, target: string, line: number): EdgeRow => ({
  folder: F,
  path,
  kind,
  target,
  line,
});

test('import specifiers and links resolve to files of the folder', () => {
  const known = new Set(['src/money.ts', 'src/invoice.ts', 'pkg/geo.py', 'docs/guide.md', 'lib/util/index.ts']);
  assert.deepEqual(resolveTarget('src/invoice.ts', './money.js', 'import', known), ['src/money.ts']);
  assert.deepEqual(resolveTarget('src/invoice.ts', '../lib/util', 'import', known), ['lib/util/index.ts']);
  assert.deepEqual(resolveTarget('main.py', 'pkg.geo', 'import', known), ['pkg/geo.py']);
  assert.deepEqual(resolveTarget('README.md', 'docs/guide.md#install', 'link', known), ['docs/guide.md']);
  assert.deepEqual(resolveTarget('README.md', 'https://example.com/x.md', 'link', known), []);
  assert.deepEqual(resolveTarget('docs/guide.md', '../../etc/passwd', 'link', known), []);
});

test('neighbours: definitions a chunk references, files its lines import, chunks calling what it defines', () => {
  const g = new GraphIndex();
  g.setFile(F, '/p/src/money.ts', 'src/money.ts', [node('/p/src/money.ts', 'formatCents', 'function', 1)], []);
  g.setFile(
    F,
    '/p/src/invoice.ts',
    'src/invoice.ts',
    [node('/p/src/invoice.ts', 'parseInvoiceTotals', 'function', 10)],
    [edge('/p/src/invoice.ts', 'import', './money.js', 1), edge('/p/src/invoice.ts', 'reference', 'formatCents', 14)],
  );
  const fromInvoice = g.neighbours(F, '/p/src/invoice.ts', 10, 20, 10);
  assert.ok(fromInvoice.some((t) => t.path === '/p/src/money.ts' && t.via === 'reference' && t.line === 1));
  // The import at line 1 is the file's, not this chunk's: only the chunk holding it hops along it.
  assert.ok(!fromInvoice.some((t) => t.via === 'import'));
  assert.ok(
    g.neighbours(F, '/p/src/invoice.ts', 1, 20, 10).some((t) => t.path === '/p/src/money.ts' && t.via === 'import'),
  );
  // From the definition of formatCents: the line of invoice.ts that calls it.
  const fromMoney = g.neighbours(F, '/p/src/money.ts', 1, 4, 10);
  assert.deepEqual(
    fromMoney.map((t) => [t.path, t.via, t.line]),
    [['/p/src/invoice.ts', 'imported_by', 14]],
  );
  // Control: a chunk of money.ts defining nothing invoice.ts calls has no callers to hop to.
  g.setFile(
    F,
    '/p/src/money.ts',
    'src/money.ts',
    [node('/p/src/money.ts', 'formatCents', 'function', 1), node('/p/src/money.ts', 'parseCents', 'function', 6)],
    [],
  );
  assert.deepEqual(g.neighbours(F, '/p/src/money.ts', 6, 9, 10), []);
  assert.equal(g.neighbours(F, '/p/src/money.ts', 1, 4, 10).length, 1);
  g.removeFile(F, '/p/src/invoice.ts');
  assert.deepEqual(g.neighbours(F, '/p/src/money.ts', 1, 4, 10), []);
});

test('a query that is names finds their definitions; plain words or a sentence mentioning a name do not', () => {
  const g = new GraphIndex();
  g.setFile(F, '/p/a.ts', 'a.ts', [node('/p/a.ts', 'InvoiceStore.save', 'method', 5)], []);
  assert.deepEqual(
    g.nameMatches('InvoiceStore.save', new Set([F]), 5).map((t) => t.line),
    [5],
  );
  assert.deepEqual(
    g.nameMatches('save', new Set([F]), 5).map((t) => t.line),
    [],
  );
  assert.deepEqual(g.nameMatches('where is InvoiceStore.save called', new Set([F]), 5), []);
  assert.deepEqual(g.nameMatches('save the file', new Set([F]), 5), []);
  assert.deepEqual(identifiers('parseInvoiceTotals and haversine_distance in the text'), [
    'parseinvoicetotals',
    'haversine_distance',
  ]);
});

test('a reference reaches the definitions its file can see (own file, imported files), not a same-named one elsewhere', () => {
  const g = new GraphIndex();
  g.setFile(F, '/p/src/money.ts', 'src/money.ts', [node('/p/src/money.ts', 'round', 'function', 1)], []);
  g.setFile(F, '/p/other/stats.ts', 'other/stats.ts', [node('/p/other/stats.ts', 'round', 'function', 7)], []);
  g.setFile(F, '/p/docs/round.md', 'docs/round.md', [node('/p/docs/round.md', 'Round', 'heading', 1)], []);
  g.setFile(
    F,
    '/p/src/invoice.ts',
    'src/invoice.ts',
    [node('/p/src/invoice.ts', 'total', 'function', 10), node('/p/src/invoice.ts', 'tax', 'function', 30)],
    [
      edge('/p/src/invoice.ts', 'import', './money.js', 1),
      edge('/p/src/invoice.ts', 'reference', 'round', 12),
      edge('/p/src/invoice.ts', 'reference', 'tax', 13),
    ],
  );
  const refs = g
    .neighbours(F, '/p/src/invoice.ts', 10, 20, 20)
    .filter((t) => t.via === 'reference')
    .map((t) => `${t.path}:${t.line}`);
  // The imported file's definition and the file's own one; not other/stats.ts (never imported) nor a heading.
  assert.deepEqual(refs.sort(), ['/p/src/invoice.ts:30', '/p/src/money.ts:1']);
  // Control: once invoice.ts imports other/stats.ts, its `round` is visible too.
  g.setFile(
    F,
    '/p/src/invoice.ts',
    'src/invoice.ts',
    [node('/p/src/invoice.ts', 'total', 'function', 10)],
    [
      edge('/p/src/invoice.ts', 'import', './money.js', 1),
      edge('/p/src/invoice.ts', 'import', '../other/stats.js', 2),
      edge('/p/src/invoice.ts', 'reference', 'round', 12),
    ],
  );
  assert.ok(
    g
      .neighbours(F, '/p/src/invoice.ts', 10, 20, 20)
      .some((t) => t.via === 'reference' && t.path === '/p/other/stats.ts'),
  );
});

test('a query of a few plain words that spells a definition name finds it ("reflection object" → ReflectionObject)', () => {
  const g = new GraphIndex();
  g.setFile(F, '/p/object.js', 'object.js', [node('/p/object.js', 'ReflectionObject', 'function', 12)], []);
  g.setFile(F, '/p/util.py', 'util.py', [node('/p/util.py', 'sorted_index_by', 'function', 3)], []);
  assert.deepEqual(
    g.nameMatches('reflection object', new Set([F]), 5).map((t) => t.path),
    ['/p/object.js'],
  );
  assert.deepEqual(
    g.nameMatches('Sorted index by', new Set([F]), 5).map((t) => t.path),
    ['/p/util.py'],
  );
  // Controls: other words, the words in another order, or a sentence around them name nothing.
  assert.deepEqual(g.nameMatches('object reflection', new Set([F]), 5), []);
  assert.deepEqual(g.nameMatches('how is the reflection object of a type built', new Set([F]), 5), []);
});
