import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFile } from '../../main/engine/parse/index.js';
import type { ParsedFile } from '../../main/engine/types.js';
import { INVOICE_TS, lineOf, makeFixtureFolder, type FixtureInfo } from '../helpers/fixtures.js';
import { countTokens, MAX_TOKENS, opts } from './counter.js';

let root: string;
let info: FixtureInfo;
const parsed = new Map<string, ParsedFile>();
const sources = new Map<string, string>();

test.before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-parse-fx-'));
  info = await makeFixtureFolder(root);
  for (const rel of info.indexed) {
    const path = join(info.folder, rel);
    const bytes = await readFile(path);
    sources.set(rel, bytes.toString('utf8'));
    parsed.set(rel, await parseFile({ path, rel }, bytes, opts));
  }
});
test.after(() => rm(root, { recursive: true, force: true }));

test('every chunk of the fixture fits the token window and has a sane 1-based line range', () => {
  let chunks = 0;
  for (const [rel, p] of parsed) {
    for (const c of p.chunks) {
      chunks++;
      assert.ok(countTokens(c.text) <= MAX_TOKENS, `${rel}:${c.startLine} has ${countTokens(c.text)} tokens`);
      assert.ok(Number.isInteger(c.startLine) && c.startLine >= 1, `${rel} startLine ${c.startLine}`);
      assert.ok(c.endLine >= c.startLine, `${rel} ${c.startLine}-${c.endLine}`);
      assert.ok(c.text.trim().length > 0, `${rel} has an empty chunk`);
    }
  }
  assert.ok(chunks >= info.indexed.length);
});

test('chunks of text files are the exact source lines they claim', () => {
  for (const [rel, p] of parsed) {
    if (!p.chunks.length || ['pdf', 'docx', 'html'].includes(p.chunks[0].kind)) continue;
    const lines = sources.get(rel)!.split('\n');
    for (const c of p.chunks)
      assert.equal(c.text, lines.slice(c.startLine - 1, c.endLine).join('\n'), `${rel}:${c.startLine}-${c.endLine}`);
  }
});

test('known symbols have their names, kinds and exact line ranges in every language', () => {
  for (const s of info.symbols) {
    const p = parsed.get(s.rel)!;
    const def = p.symbols.find((d) => d.name === s.name);
    assert.ok(def, `${s.rel}: no symbol ${s.name} among ${p.symbols.map((d) => d.name).join(', ')}`);
    assert.deepEqual(
      { kind: def.kind, startLine: def.startLine, endLine: def.endLine },
      { kind: s.kind, startLine: s.startLine, endLine: s.endLine },
      `${s.rel} ${s.name}`,
    );
    // The definition's lines are covered by chunks of its own symbol, or (when the whole class
    // fits one chunk) of its container's: `InvoiceStore.save` inside the `InvoiceStore` chunk.
    const owners = p.chunks.filter((c) => c.symbol === s.name || s.name.startsWith(`${c.symbol}.`));
    assert.ok(owners.length, `${s.rel}: no chunk for ${s.name}`);
    for (const c of owners) assert.equal(c.language, s.language);
    for (let line = s.startLine; line <= s.endLine; line++) {
      assert.ok(
        owners.some((c) => c.startLine <= line && line <= c.endLine),
        `${s.rel} ${s.name}: line ${line} not covered`,
      );
    }
    const own = p.chunks.find((c) => c.symbol === s.name);
    if (own) assert.equal(own.symbolKind, s.kind);
  }
});

test('the distinctive functions are one chunk each, with the doc comment above them', () => {
  const ts = parsed.get('src/invoice.ts')!.chunks.find((c) => c.symbol === 'parseInvoiceTotals')!;
  const def = info.symbols.find((s) => s.name === 'parseInvoiceTotals')!;
  assert.equal(ts.startLine, def.startLine - 1);
  assert.equal(ts.endLine, def.endLine);
  assert.match(ts.text, /^\/\*\* Sums the lines/);
  // Under the 128-token window this one is too long: it is cut into windows that all keep the symbol.
  const py = parsed.get('py/geo.py')!.chunks.filter((c) => c.symbol === 'haversine_distance');
  const pdef = info.symbols.find((s) => s.name === 'haversine_distance')!;
  assert.ok(py.length >= 2);
  assert.equal(py[0].startLine, pdef.startLine);
  assert.equal(py[py.length - 1].endLine, pdef.endLine);
  assert.ok(py.every((c) => c.symbolKind === 'function' && c.language === 'python'));
});

test('Markdown sections keep their heading path and exact lines; front matter is skipped', () => {
  for (const s of info.sections) {
    const chunk = parsed.get(s.rel)!.chunks.find((c) => c.heading === s.heading);
    assert.ok(chunk, `${s.rel}: no chunk with heading ${s.heading}`);
    assert.deepEqual([chunk.startLine, chunk.endLine], [s.startLine, s.endLine], s.heading);
  }
  assert.ok(!parsed.get('README.md')!.chunks.some((c) => c.text.includes('tags: [demo]')));
});

test('graph refs: imports of every language and links of Markdown and HTML', () => {
  for (const i of info.imports) {
    const refs = parsed
      .get(i.rel)!
      .refs.filter((r) => r.kind === 'import')
      .map((r) => r.target);
    assert.ok(refs.includes(i.target), `${i.rel}: import ${i.target} not in ${refs.join(', ')}`);
  }
  for (const l of info.links) {
    const refs = parsed
      .get(l.rel)!
      .refs.filter((r) => r.kind === 'link')
      .map((r) => r.target);
    assert.ok(refs.includes(l.target), `${l.rel}: link ${l.target} not in ${refs.join(', ')}`);
  }
});

test('graph refs: call sites and type references, deduplicated, never the definition itself', () => {
  const ts = parsed.get('src/invoice.ts')!.refs.filter((r) => r.kind === 'reference');
  const targets = ts.map((r) => r.target);
  assert.ok(targets.includes('formatCents'));
  assert.ok(targets.includes('InvoiceLine'));
  assert.equal(new Set(targets).size, targets.length);
  const inv = ts.find((r) => r.target === 'InvoiceLine')!;
  // The interface's own name (line 4) is not a reference; its first use is.
  assert.equal(inv.line, lineOf(INVOICE_TS, 'lines: InvoiceLine[]'));
  const py = parsed
    .get('py/geo.py')!
    .refs.filter((r) => r.kind === 'reference')
    .map((r) => r.target);
  assert.ok(py.includes('haversine_distance') && py.includes('radians'));
  const go = parsed
    .get('go/server.go')!
    .refs.filter((r) => r.kind === 'reference')
    .map((r) => r.target);
  assert.ok(go.includes('ListenAndServe') && go.includes('Fprintln'));
  const c = parsed
    .get('cpp/matrix.cpp')!
    .refs.filter((r) => r.kind === 'reference')
    .map((r) => r.target);
  assert.ok(c.includes('at'));
});

test('PDF chunks carry the page, lines within the page, and each page text', () => {
  const p = parsed.get(info.pdf.rel)!;
  info.pdf.pages.forEach((lines, i) => {
    const chunk = p.chunks.find((c) => c.page === i + 1);
    assert.ok(chunk, `page ${i + 1}`);
    assert.equal(chunk.kind, 'pdf');
    assert.equal(chunk.startLine, 1);
    for (const line of lines) assert.ok(chunk.text.includes(line), line);
  });
});

test('DOCX paragraphs become text; HTML keeps visible text and drops scripts and styles', () => {
  const docx = parsed
    .get(info.docx.rel)!
    .chunks.map((c) => c.text)
    .join('\n');
  for (const para of info.docx.paragraphs) assert.ok(docx.includes(para), para);
  const html = parsed.get(info.html.rel)!;
  const text = html.chunks.map((c) => c.text).join('\n');
  for (const v of info.html.visible) assert.ok(text.includes(v), v);
  for (const h of info.html.hidden) assert.ok(!text.includes(h), h);
});
