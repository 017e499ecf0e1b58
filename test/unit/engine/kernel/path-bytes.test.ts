// Unit: Cairn's text for file names that are not valid UTF-8 (main/engine/kernel/path-bytes.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { fsPath, isCanonicalPathText, pathBytes, pathText } from '../../../../main/engine/kernel/path-bytes.js';

const b = (s: string) => Buffer.from(s, 'latin1');

test('valid UTF-8 names are their own text; other bytes are \\xNN; a literal escape is \\x5c', () => {
  assert.equal(pathText(Buffer.from('café/notes.md')), 'café/notes.md');
  assert.equal(pathText(Buffer.from('a\\b\\xz.md')), 'a\\b\\xz.md', 'a backslash that reads as no escape stays');
  assert.equal(pathText(b('caf\xe9.md')), 'caf\\xe9.md');
  assert.equal(pathText(Buffer.from('caf\\xe9.md')), 'caf\\x5cxe9.md');
  assert.equal(pathText(Buffer.from('caf\\xE9.md')), 'caf\\x5cxE9.md', 'either case of hex reads as an escape');
  // Overlong, surrogate and out-of-range encodings are not UTF-8: each byte escaped.
  assert.equal(pathText(b('\xc0\xaf')), '\\xc0\\xaf');
  assert.equal(pathText(b('\xed\xa0\x80')), '\\xed\\xa0\\x80');
  assert.equal(pathText(b('\xf4\x90\x80\x80')), '\\xf4\\x90\\x80\\x80');
  // A truncated sequence before a valid one: only the stray byte.
  assert.equal(pathText(Buffer.concat([b('\xe2\x82'), Buffer.from('€')])), '\\xe2\\x82€');
  // The control: Node's own decoding is lossy, which is what all this is for.
  assert.equal(b('caf\xe9.md').toString('utf8'), 'caf\ufffd.md');
});

test('every byte string round-trips through its text, and the text is canonical (property, 3000 runs)', () => {
  const alphabet = b('ab/\\x5cE9.\xe9\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff\x80');
  for (let run = 0; run < 3000; run++) {
    const raw = randomBytes(1 + (run % 24));
    // Half the runs draw from bytes that make escapes and near-escapes likely.
    const bytes = run % 2 ? raw : Buffer.from(raw.map((x) => alphabet[x % alphabet.length]));
    const text = pathText(bytes);
    assert.ok(pathBytes(text).equals(bytes), `${bytes.toString('hex')} → ${JSON.stringify(text)}`);
    assert.ok(isCanonicalPathText(text), JSON.stringify(text));
    assert.ok(!text.includes('\ufffd') || bytes.includes(Buffer.from('\ufffd')), 'no U+FFFD invented');
  }
});

test('two different names never share a text (the look-alikes of one lossy name stay apart)', () => {
  const names = [b('caf\xe9'), Buffer.from('café'), Buffer.from('caf\\xe9'), b('caf\xe8'), Buffer.from('caf\ufffd')];
  const texts = names.map((n) => pathText(n));
  assert.equal(new Set(texts).size, names.length, JSON.stringify(texts));
  // The control: their lossy decodings do collide.
  assert.ok(new Set(names.map((n) => n.toString('utf8'))).size < names.length);
});

test('fsPath hands fs the bytes only where the text holds an escape; non-canonical texts are told apart', () => {
  assert.equal(fsPath('/home/a/notes.md'), '/home/a/notes.md');
  const p = fsPath('/home/a/caf\\xe9.md');
  assert.ok(Buffer.isBuffer(p) && p.equals(b('/home/a/caf\xe9.md')));
  assert.equal(isCanonicalPathText('caf\\xe9.md'), true);
  assert.equal(isCanonicalPathText('\\x41.md'), false, '\\x41 is A, which Cairn writes as A');
  assert.equal(isCanonicalPathText('caf\\xc3\\xa9.md'), false, 'valid UTF-8 is never escaped');
  assert.equal(isCanonicalPathText('caf\\xE9.md'), false, 'Cairn writes lowercase hex');
  assert.equal(isCanonicalPathText('caf\\x5cxe9.md'), true);
});
