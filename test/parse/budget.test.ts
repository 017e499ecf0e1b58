import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packParagraphs, packUnits, splitLongUnit, toUnits, type Unit } from '../../main/engine/parse/budget.js';
import { parseFile } from '../../main/engine/parse/index.js';
import { CachedTokenCounter } from '../../main/engine/embed/token-counter.js';
import { countTokens } from './counter.js';
import { seeded } from '../helpers/random.js';

const budget = (maxTokens: number) => ({ maxTokens, countTokens });

test('a line longer than the window is split by characters and keeps its line number', () => {
  const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
  const pieces = splitLongUnit({ line: 7, text: long }, budget(32));
  assert.ok(pieces.length > 3);
  assert.equal(pieces.map((p) => p.text).join(''), long);
  for (const p of pieces) {
    assert.equal(p.line, 7);
    assert.ok(countTokens(p.text) <= 32);
  }
});

test('a long line is cut where counting each probed prefix anew cuts it, with prefix counts from one pass', () => {
  const c = new CachedTokenCounter((w) => Math.ceil(w.length / 3));
  const plain = { maxTokens: 40, countTokens: (t: string) => c.count(t) };
  const onePass = { ...plain, countRanges: (t: string) => c.ranges(t) };
  const lines = [
    Array.from({ length: 400 }, (_, i) => `term${i % 13}${'x'.repeat(i % 9)}`).join(' '),
    Array.from({ length: 300 }, (_, i) => (i % 4 === 0 ? 'wide\t\tgap' : 'a'.repeat(i % 17))).join('  '),
    ' leading and trailing spaces '.repeat(60),
    'y'.repeat(3000),
  ];
  for (const text of lines) {
    const a = splitLongUnit({ line: 3, text }, plain);
    const b = splitLongUnit({ line: 3, text }, onePass);
    assert.ok(a.length > 2, `${a.length} pieces: the line must need cutting`);
    assert.deepEqual(b, a);
  }
});

test('a single unbroken token longer than the window is still cut to fit', () => {
  const blob = 'x'.repeat(5000);
  const out = packUnits([{ line: 1, text: blob }], budget(16));
  assert.ok(out.every((w) => countTokens(w.text) <= 16 && w.startLine === 1 && w.endLine === 1));
  assert.equal(out.map((w) => w.text).join(''), blob);
});

test('line windows fit, overlap a little, cover every line, and fill most of the window', () => {
  const text = Array.from({ length: 200 }, (_, i) => `line ${i + 1} holds some words of text`).join('\n');
  const out = packUnits(toUnits(text), budget(64), 6);
  for (const w of out) assert.ok(countTokens(w.text) <= 64);
  for (let line = 1; line <= 200; line++)
    assert.ok(
      out.some((w) => w.startLine <= line && line <= w.endLine),
      `line ${line}`,
    );
  for (let i = 1; i < out.length; i++) assert.ok(out[i].startLine <= out[i - 1].endLine, 'consecutive windows overlap');
  for (const w of out.slice(0, -1)) assert.ok(countTokens(w.text) >= 0.6 * 64, `window ${w.startLine} is under 60%`);
});

test('paragraph packing never cuts a paragraph that fits and keeps the exact source lines', () => {
  const paras = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} first line.\nParagraph ${i} second line.`);
  const text = paras.join('\n\n\n');
  const lines = text.split('\n');
  const out = packParagraphs(toUnits(text), budget(40));
  for (const w of out) {
    assert.ok(countTokens(w.text) <= 40);
    assert.equal(w.text, lines.slice(w.startLine - 1, w.endLine).join('\n'));
    assert.match(lines[w.startLine - 1], /first line/);
    assert.match(lines[w.endLine - 1], /second line/);
  }
});

test('parseFile rejects a window of less than one token', async () => {
  await assert.rejects(
    parseFile({ path: '/a.txt', rel: 'a.txt' }, Buffer.from('x'), { maxTokens: 0, countTokens }),
    RangeError,
  );
});

test('plain text: windows over paragraphs; invalid UTF-8 decodes as Windows-1252; BOM dropped', async () => {
  const latin = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
  const r = await parseFile({ path: '/a.txt', rel: 'a.txt' }, latin, { maxTokens: 128, countTokens });
  assert.equal(r.chunks[0].text, 'café');
  const bom = await parseFile({ path: '/b.txt', rel: 'b.txt' }, Buffer.from('\ufeffhello'), {
    maxTokens: 128,
    countTokens,
  });
  assert.equal(bom.chunks[0].text, 'hello');
  const empty = await parseFile({ path: '/c.txt', rel: 'c.txt' }, Buffer.from('\n\n  \n'), {
    maxTokens: 128,
    countTokens,
  });
  assert.deepEqual(empty.chunks, []);
});

test('data files are text windows of kind data with their language', async () => {
  const csv = 'id,name\n' + Array.from({ length: 100 }, (_, i) => `${i},name-${i}`).join('\n');
  const r = await parseFile({ path: '/d.csv', rel: 'd.csv' }, Buffer.from(csv), { maxTokens: 128, countTokens });
  assert.ok(r.chunks.length > 1);
  assert.ok(r.chunks.every((c) => c.kind === 'data' && c.language === 'csv' && countTokens(c.text) <= 128));
  assert.equal(r.chunks[0].startLine, 1);
  assert.equal(r.chunks[r.chunks.length - 1].endLine, 101);
});

test('paragraph packing counts from one pass and skips joins a long paragraph cannot fit, and packs as counting every join does', () => {
  const c = new CachedTokenCounter((w) => Math.ceil(w.length / 4));
  let budget = { maxTokens: 48, countTokens: (t: string) => c.count(t), countRanges: (t: string) => c.ranges(t) };
  /** The packing before the shortcut: every join is counted. */
  const reference = (units: Unit[]) => {
    const out: { startLine: number; endLine: number; text: string }[] = [];
    const join = (a: number, b: number) =>
      units
        .slice(a, b)
        .map((u) => u.text)
        .join('\n');
    let start = -1;
    let end = -1;
    const flush = () => {
      if (start >= 0) out.push({ startLine: units[start].line, endLine: units[end - 1].line, text: join(start, end) });
      start = end = -1;
    };
    const ranges: [number, number][] = [];
    units.forEach((u, i) => {
      if (u.text.trim() === '') return;
      if (i > 0 && units[i - 1].text.trim() !== '' && ranges.length) ranges[ranges.length - 1][1] = i + 1;
      else ranges.push([i, i + 1]);
    });
    for (const [a, b] of ranges) {
      if (start >= 0 && c.count(join(start, b)) <= budget.maxTokens) {
        end = b;
        continue;
      }
      flush();
      if (c.count(join(a, b)) <= budget.maxTokens) [start, end] = [a, b];
      else out.push(...packUnits(units.slice(a, b), budget, 4));
    }
    flush();
    return out;
  };
  const rand = seeded(11).int;
  let counted = 0;
  for (let k = 0; k < 600; k++) {
    // Small and large windows: paragraphs that overflow alone, and long ones that still join.
    budget = { ...budget, maxTokens: k % 2 === 0 ? 48 : 160 };
    const lines: string[] = [];
    for (let p = 0, n = 1 + rand(8); p < n; p++) {
      for (let l = 0, m = 1 + rand(4); l < m; l++)
        lines.push(
          (rand(5) === 0 ? ' ' : '') +
            Array.from({ length: 1 + rand(rand(2) === 0 ? 60 : 8) }, () => 'w'.repeat(1 + rand(9))).join(' ') +
            // Trailing whitespace meets the next line's at a join: one run, counted once.
            ['', '', '', ' ', '  ', '\t'][rand(6)],
        );
      lines.push(rand(3) === 0 ? '  ' : '');
    }
    const units = toUnits(lines.join('\n'));
    const got = packParagraphs(units, budget, 4);
    assert.deepEqual(got, reference(units));
    // A section past the one-pass size counts each join and line anew, to the same windows.
    assert.deepEqual(packParagraphs(units, budget, 4, 0), got);
    counted += got.length;
  }
  assert.ok(counted > 600, `only ${counted} windows compared`);
});
