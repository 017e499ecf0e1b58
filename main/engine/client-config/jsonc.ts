/**
 * JSON client configs edited the way VS Code edits its own (jsonc-parser: modify + applyEdits):
 * comments, trailing commas, key order and indentation stay as the person wrote them; only
 * `<container>.cairn` changes. The result is parsed back and must equal the original with that
 * one entry replaced, or nothing is written.
 */
import { isDeepStrictEqual } from 'node:util';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { CairnError } from '../errors.js';

const OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

function parseOrRefuse(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, OPTIONS);
  if (errors.length > 0) {
    const e = errors[0];
    throw new CairnError(
      'conflict',
      `${file} is not valid JSON (${printParseErrorCode(e.error)} at ${lineCol(text, e.offset)}); it was left untouched.`,
      {
        remedy: 'Fix the file by hand or copy the snippet into it.',
      },
    );
  }
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function indentOf(text: string): { insertSpaces: boolean; tabSize: number } {
  const m = /\n([ \t]+)["}]/.exec(text);
  if (!m) return { insertSpaces: true, tabSize: 2 };
  return m[1].startsWith('\t') ? { insertSpaces: false, tabSize: 1 } : { insertSpaces: true, tabSize: m[1].length };
}

/** `text` (JSON or JSONC; empty means `{}`) with `container.name` set to `entry`, all else kept. */
export function mergeJsonEntry(
  text: string,
  container: string,
  name: string,
  entry: unknown,
  file = 'the file',
): string {
  const source = text.trim() === '' ? '{}\n' : text;
  const doc = parseOrRefuse(source, file);
  if (!isObject(doc)) {
    throw new CairnError(
      'conflict',
      `${file} is not a JSON object (its top level is ${Array.isArray(doc) ? 'an array' : doc === null ? 'null' : typeof doc}); it was left untouched.`,
      {
        remedy: 'Fix the file by hand or copy the snippet into it.',
      },
    );
  }
  if (doc[container] !== undefined && !isObject(doc[container])) {
    throw new CairnError('conflict', `"${container}" in ${file} is not an object; it was left untouched.`, {
      remedy: `Make "${container}" an object of servers, or copy the snippet by hand.`,
    });
  }
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const edits = modify(source, [container, name], entry, { formattingOptions: { ...indentOf(source), eol } });
  let merged = applyEdits(source, edits);
  if (!merged.endsWith('\n')) merged += eol;
  const expected = { ...doc, [container]: { ...((doc[container] as Record<string, unknown>) ?? {}), [name]: entry } };
  if (!isDeepStrictEqual(parseOrRefuse(merged, file), expected)) {
    throw new CairnError(
      'conflict',
      `Cairn could not add its entry to ${file} without changing other content; it was left untouched.`,
      {
        remedy: 'Copy the snippet into the file by hand.',
      },
    );
  }
  return merged;
}
