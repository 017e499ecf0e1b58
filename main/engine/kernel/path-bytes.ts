/**
 * Paths as Cairn writes them, for names that are not valid UTF-8.
 *
 * A POSIX file name is bytes. Node's string paths decode them as UTF-8 and turn every byte that is
 * not part of a valid sequence into U+FFFD, so a latin-1 `caf\xe9.md` becomes `caf�.md`, a path
 * that opens nothing (or a different file). Cairn keeps one text per path that maps back to the
 * exact bytes: valid UTF-8 is written as itself; each other byte is written `\xNN` (two lowercase
 * hex digits), as Python's backslashreplace and git's quoting do; and a literal backslash that
 * would read as such an escape (`\` before `x` and two hex digits) is written `\x5c`, so no valid
 * name is ever mistaken for an escaped one. Every other name, almost all, is untouched.
 *
 * The text is plain, printable and survives JSON, Arrow UTF-8 columns and a model's context, which
 * a lone-surrogate encoding (Python's surrogateescape) would not. Only canonical texts (the ones
 * this module writes) name a file: `\x41` for `A` is refused where a path is asked for
 * (kernel/scope.ts), so one file has one name and the folder's rules judge the name it is opened by.
 *
 * Every fs call on a folder's files takes `fsPath(text)`; every name read from the disk (a listing,
 * a realpath, /proc/self/fd) goes through `pathText`.
 */
import { isUtf8 } from 'node:buffer';
import { readlinkSync, realpathSync } from 'node:fs';
import { readlink, realpath } from 'node:fs/promises';

const ESCAPE = /\\x[0-9a-fA-F]{2}/;
const ESCAPES = /\\x([0-9a-fA-F]{2})/g;
const BACKSLASH = 0x5c;

const hex = (b: number) => `\\x${b.toString(16).padStart(2, '0')}`;
const isCont = (b: number | undefined) => b !== undefined && b >= 0x80 && b <= 0xbf;

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function sequenceAt(b: Buffer, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return isCont(b[i + 1]) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const c1 = b[i + 1];
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf; // no UTF-16 surrogates
    return c1 !== undefined && c1 >= lo && c1 <= hi && isCont(b[i + 2]) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const c1 = b[i + 1];
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return c1 !== undefined && c1 >= lo && c1 <= hi && isCont(b[i + 2]) && isCont(b[i + 3]) ? 4 : 0;
  }
  return 0;
}

/** The text Cairn uses for a path or name read from the disk as bytes. */
export function pathText(bytes: Buffer | string): string {
  if (typeof bytes === 'string') return bytes;
  // Nearly every name: valid UTF-8 with no backslash, its own text.
  if (bytes.indexOf(BACKSLASH) === -1 && isUtf8(bytes)) return bytes.toString('utf8');
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceAt(bytes, i);
    if (n === 0) {
      out += hex(bytes[i]);
      i++;
      continue;
    }
    if (bytes[i] === BACKSLASH && bytes[i + 1] === 0x78 && isHex(bytes[i + 2]) && isHex(bytes[i + 3])) {
      out += '\\x5c';
      i++;
      continue;
    }
    out += bytes.toString('utf8', i, i + n);
    i += n;
  }
  return out;
}

function isHex(b: number | undefined): boolean {
  return b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
}

/**
 * True when a name Node read as UTF-8 text is already Cairn's text for its bytes: no U+FFFD (it may
 * stand for a byte that is not UTF-8) and no backslash (it may have to be written `\x5c`). Reading
 * a listing as text and only the rare one with such a name again as bytes spares a Buffer per name.
 */
export function isPlainDecodedName(name: string): boolean {
  return !name.includes('\uFFFD') && !name.includes('\\');
}

/** The bytes a Cairn path text stands for. */
export function pathBytes(text: string): Buffer {
  if (!ESCAPE.test(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(ESCAPES)) {
    parts.push(Buffer.from(text.slice(last, m.index), 'utf8'), Buffer.from([parseInt(m[1], 16)]));
    last = m.index + m[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

/** What to hand an fs call for a Cairn path text: the text itself unless it holds an escape. */
export function fsPath(text: string): string | Buffer {
  return ESCAPE.test(text) ? pathBytes(text) : text;
}

/** True when `text` is the text Cairn writes for its bytes (no `\xNN` standing for valid UTF-8). */
export function isCanonicalPathText(text: string): boolean {
  if (!ESCAPE.test(text)) return true;
  return pathText(pathBytes(text)) === text;
}

export async function realpathText(text: string): Promise<string> {
  return pathText(await realpath(fsPath(text), { encoding: 'buffer' }));
}

export function realpathTextSync(text: string): string {
  return pathText(realpathSync.native(fsPath(text), { encoding: 'buffer' }));
}

export async function readlinkText(text: string): Promise<string> {
  return pathText(await readlink(fsPath(text), { encoding: 'buffer' }));
}

export function readlinkTextSync(text: string): string {
  return pathText(readlinkSync(fsPath(text), { encoding: 'buffer' }));
}
