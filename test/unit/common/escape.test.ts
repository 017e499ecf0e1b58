// Unit: control characters made visible (main/common/escape.ts), with a round-trip property.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  escapeContent,
  escapeContentLine,
  escapeControls,
  hasControlEscapes,
  unescapeControls,
} from '../../../main/common/escape.js';

const HOSTILE = [
  '\n',
  '\r',
  '\u001b',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u2066',
  '\u200f',
  '\ufeff',
  '\t',
];

test('every control, separator and bidi mark is escaped, and nothing else is touched', () => {
  for (const c of HOSTILE) {
    const out = escapeControls(`a${c}b`);
    assert.match(out, /^a\\(n|r|t|u[0-9a-f]{4})b$/, JSON.stringify(c));
    assert.ok(hasControlEscapes(out));
  }
  assert.equal(escapeControls('a\nb\u001b[2J'), 'a\\nb\\u001b[2J');
  // Control: ordinary text, including non-ASCII letters and emoji, passes unchanged.
  for (const s of ['plain/path.md', 'Größe – naïve 日本語 🙂', 'C:\\dir\\file']) assert.equal(escapeControls(s), s);
  assert.equal(hasControlEscapes('plain/path.md'), false);
});

test('content lines keep their tabs; multi-line content keeps its lines and reads CRLF as one end', () => {
  assert.equal(escapeContentLine('\tindented\u001b'), '\tindented\\u001b');
  assert.equal(escapeContent('a\r\nb\rc\n\td'), 'a\nb\\rc\n\td');
  assert.equal(escapeContent('x\u2028y').split('\n').length, 1, 'a line separator does not start a line');
});

test('unescape reverses escape exactly, for any string', () => {
  fc.assert(
    fc.property(
      fc.string({
        unit: fc.oneof(
          fc.constantFrom(...HOSTILE, '\\', 'n', 'u'),
          fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        ),
      }),
      (s) => {
        const escaped = escapeControls(s);
        assert.equal(
          // eslint-disable-next-line no-control-regex -- looking for raw controls is the point
          escaped.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ''),
          escaped,
          'no raw control is left',
        );
        // A backslash sequence already in the name is left as it is by unescape unless it names a control.
        if (!hasControlEscapes(s)) assert.equal(unescapeControls(escaped), s);
      },
    ),
    { numRuns: 500 },
  );
  // Only escapes of control characters are read back: `\u0041` (A) stays as written.
  assert.equal(unescapeControls('\\u0041\\u000a'), '\\u0041\n');
});
