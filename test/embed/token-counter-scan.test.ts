// The counter scans characters itself (no regex per call): it must count exactly as the regex
// definition it replaced, for every kind of whitespace `\s` knows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CachedTokenCounter } from '../../main/engine/embed/token-counter.js';
import { seeded } from '../helpers/random.js';

/** The definition: runs of whitespace cost 3 (with a newline or tab) or 1 (spaces), plus the words. */
function reference(text: string, countWord: (w: string) => number): number {
  let total = 0;
  for (const run of text.match(/\s+/g) ?? []) if (run !== ' ') total += /[^ ]/.test(run) ? 3 : 1;
  if (text.startsWith(' ')) total += 1;
  if (text.endsWith(' ')) total += 1;
  for (const word of text.split(/\s+/)) if (word.length > 0) total += countWord(word);
  return total;
}

test('the scanning counter agrees with the regex definition on random whitespace soups', () => {
  const countWord = (w: string) => (w.length % 5) + 1;
  const c = new CachedTokenCounter(countWord);
  const alphabet = [
    ' ',
    ' ',
    '\n',
    '\t',
    '\r',
    '\v',
    '\f',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u200a',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\ufeff',
    '\u200b',
    '\u0085',
    '\u180e',
    'a',
    'b',
    'é',
    '😀',
    '-',
  ];
  const rand = seeded(1);
  for (let k = 0; k < 20_000; k++) {
    let s = '';
    for (let j = 0; j < k % 16; j++) s += alphabet[rand.int(alphabet.length)];
    assert.equal(c.count(s), reference(s, countWord), JSON.stringify(s));
  }
});

test('range counts from one pass equal counting each range anew, at every start and end', () => {
  // Words of varied cost, so a range that cuts one is counted as the shorter word it is.
  const countWord = (w: string) => (w.length % 5) + 1;
  const c = new CachedTokenCounter(countWord);
  const alphabet = [' ', ' ', ' ', '\n', '\t', '\u00a0', '\u3000', 'a', 'b', 'cd', 'é', '😀', '-'];
  const rand = seeded(7);
  let compared = 0;
  for (let k = 0; k < 1500; k++) {
    let s = '';
    for (let j = 0; j < k % 30; j++) s += alphabet[rand.int(alphabet.length)];
    const range = c.ranges(s);
    for (let start = 0; start <= s.length; start++)
      for (let end = start; end <= s.length; end++) {
        assert.equal(
          range(start, end),
          reference(s.slice(start, end), countWord),
          `${JSON.stringify(s)} ${start}-${end}`,
        );
        compared++;
      }
    assert.throws(() => range(0, s.length + 1), RangeError);
  }
  assert.ok(compared > 100_000, `only ${compared} ranges compared`);
});

test('learned counts are used instead of asking the tokenizer', () => {
  const asked: string[] = [];
  const c = new CachedTokenCounter((w) => (asked.push(w), 1));
  assert.deepEqual(c.unknownWords(['alpha', 'beta', 'alpha', '']), ['alpha', 'beta']);
  c.learn(['alpha', 'beta'], [4, 5]);
  assert.equal(c.count('alpha beta gamma'), 10);
  assert.deepEqual(asked, ['gamma']);
});
