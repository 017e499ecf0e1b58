// The byte prefilter may only rule out files that cannot match: each case here is one way to get that wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { bytePrefilter, requiredLiteral } from '../../main/engine/read-grep/grep-prefilter.js';
import { seeded } from '../helpers/random.js';

test('requiredLiteral takes the longest top-level run of plain characters', () => {
  const cases: [string, string | null][] = [
    ['func Flush[A-Za-z]+[0-9]\\(', 'func Flush'],
    ['\\[[a-z]+\\]\\(\\.\\./\\.\\./payments', '](../../payments'],
    ['^## Rotate the', '## Rotate the'],
    ['limit=49[0-9]\\)', 'limit=49'],
    ['(TODO|FIXME): [A-Z]', null], // ': ' is too short to pay for a pass
    ['(TODO|FIXME): Rotate', ': Rotate'],
    ['plain', 'plain'],
  ];
  for (const [source, want] of cases) assert.equal(requiredLiteral(source), want, source);
});

test('requiredLiteral never claims what a match may lack', () => {
  const cases: [string, string | null][] = [
    ['alpha|beta', null], // either side may match alone
    ['abc*defg', 'defg'], // `c*` may be absent, and `abc` is not required either
    ['colour?s', 'colou'], // the `r` before `?` is optional
    ['abcd{2,3}xyz', 'abc'], // the quantifier's digits are no literal
    ['ab+cdef', 'cdef'],
    ['abc(?=xyz)', 'abc'], // lookaheads are skipped, not joined
    ['x[|]yzw', 'yzw'], // a `|` in a class is no alternation
    ['[]]abcd', 'abcd'], // in JavaScript `[]` closes at once
    ['a\\dbcd', 'bcd'], // `\\d` is a class
    ['\\bword\\b', 'word'],
    ['(a|b)cde', 'cde'],
    ['caf.\\u00e9wxyz', 'wxyz'], // a code escape ends a run, and its hex digits are no literal
    ['ab\\x41xyz', 'xyz'],
    ['ab\\u{1F600}xyz', 'xyz'],
    ['(?<w>q)\\k<w>xyz', 'xyz'],
    ['ab\\cJxyz', 'xyz'],
    ['(a)\\12345', null], // a backreference or octal escape, digits and all
    ['émigré', 'migr'], // non-ASCII ends runs
    ['.*', null],
    ['ab\\1cd', null],
  ];
  for (const [source, want] of cases) assert.equal(requiredLiteral(source), want, source);
});

test('Node agrees with the decoder on what is UTF-8, including the malformed cases', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const pieces = [
    [0x61],
    [0xc3, 0xa9],
    [0xe6, 0x97, 0xa5],
    [0xf0, 0x9f, 0x98, 0x80],
    [0xef, 0xbb, 0xbf],
    [0x00],
    [0xc0, 0x80],
    [0xc1, 0xbf],
    [0xe0, 0x80, 0x80],
    [0xed, 0xa0, 0x80],
    [0xed, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80],
    [0xf5, 0x80, 0x80, 0x80],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
    [0x80],
    [0xbf],
    [0xc3],
    [0xe6, 0x97],
    [0xf0, 0x9f, 0x98],
    [0xff],
    [0xfe],
    [0xe9],
  ];
  const rand = seeded(7).int;
  let invalid = 0;
  for (let i = 0; i < 3000; i++) {
    const bytes = Buffer.from(Array.from({ length: 1 + rand(6) }, () => pieces[rand(pieces.length)]).flat());
    let decodes = true;
    try {
      fatal.decode(bytes);
    } catch {
      decodes = false;
    }
    if (!decodes) invalid++;
    assert.equal(isUtf8(bytes), decodes, bytes.toString('hex'));
  }
  assert.ok(invalid > 100 && invalid < 2900);
});

test('bytePrefilter passes every file that might match and rules out the rest', () => {
  const cs = bytePrefilter('café', false, true);
  assert.ok(cs);
  assert.equal(cs(Buffer.from('un café noir')), true);
  assert.equal(cs(Buffer.from('un cafe noir')), false);
  // Windows-1252 text is not UTF-8: its bytes say nothing about its decoded text, so it passes.
  assert.equal(cs(Buffer.from('un caf\xe9 noir', 'latin1')), true);
  const ci = bytePrefilter('Retry The', false, false);
  assert.ok(ci);
  assert.equal(ci(Buffer.from('we RETRY THE call')), true);
  assert.equal(ci(Buffer.from('we retry a call')), false);
  // Non-ASCII under case folding has no safe byte test.
  assert.equal(bytePrefilter('Café', false, false), null);
  assert.equal(bytePrefilter('a|b', true, true), null);
  const re = bytePrefilter('def purge[a-zA-Z]+[0-9]\\(', true, true);
  assert.ok(re);
  assert.equal(re(Buffer.from('def purgeAll2(x)')), true);
  assert.equal(re(Buffer.from('def purg eAll2(x)')), false);
});
