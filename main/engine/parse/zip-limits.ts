/**
 * Inflated-size caps for zip-based documents (DOCX), checked before any parser inflates them. A
 * 25 kB DOCX can inflate to gigabytes of XML (a zip bomb); mammoth/jszip would build it all in
 * memory. Two checks: the central directory's declared sizes (cheap, refuses most bombs at once),
 * then every entry the text comes from is actually inflated here with zlib's `maxOutputLength`, so
 * a header that lies about its size is caught by what inflation really produces, not what it says.
 */
import { inflateRawSync } from 'node:zlib';
import { CairnError } from '../errors.js';

/** Most inflated XML a DOCX may hold (all of its .xml/.rels entries together): a 1,000-page book is about 10 MB. */
export const MAX_DOCX_XML_BYTES = 48 * 2 ** 20;
/** Most entries a DOCX may list. */
const MAX_ENTRIES = 20_000;

const EOCD_SIG = 0x06054b50;
const CDH_SIG = 0x02014b50;
const LFH_SIG = 0x04034b50;

/** Not a readable zip at all: the same error an unreadable document always gave. */
function damaged(rel: string, why: string): CairnError {
  return new CairnError('internal', `cannot read DOCX ${rel}: ${why}`, {
    remedy: 'check that the file opens; it is skipped until it changes',
    details: { path: rel },
  });
}

function bomb(rel: string, why: string): CairnError {
  return new CairnError('invalid_argument', `${rel}: ${why}; not extracted (a zip bomb or a damaged file)`, {
    remedy: 'The file is skipped until it changes.',
    details: { path: rel, reason: 'inflated size cap' },
  });
}

interface Entry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  localOffset: number;
}

function centralDirectory(buf: Buffer, rel: string): Entry[] {
  // The end record sits in the last 64 kB + 22 bytes (its comment is at most 65,535 bytes).
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged(rel, 'no zip end record');
  const count = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw damaged(rel, 'ZIP64 archives are not read as documents');
  if (count > MAX_ENTRIES) throw bomb(rel, `${count} entries`);
  const entries: Entry[] = [];
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CDH_SIG) throw damaged(rel, 'a damaged central directory');
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    entries.push({
      method: buf.readUInt16LE(at + 10),
      compressed: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      localOffset: buf.readUInt32LE(at + 42),
      name: buf.toString('utf8', at + 46, at + 46 + nameLen),
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Throws `invalid_argument` unless the DOCX's text-bearing entries inflate to at most `cap` bytes together. */
export function checkDocxInflation(bytes: Uint8Array, rel: string, cap = MAX_DOCX_XML_BYTES): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = centralDirectory(buf, rel).filter((e) => /\.(xml|rels)$/i.test(e.name));
  const declared = entries.reduce((s, e) => s + e.size, 0);
  if (declared > cap) throw bomb(rel, `its XML declares ${declared} bytes inflated (limit ${cap})`);
  let budget = cap;
  for (const e of entries) {
    const lh = e.localOffset;
    if (lh + 30 > buf.length || buf.readUInt32LE(lh) !== LFH_SIG) throw damaged(rel, `a damaged entry ${e.name}`);
    const start = lh + 30 + buf.readUInt16LE(lh + 26) + buf.readUInt16LE(lh + 28);
    const data = buf.subarray(start, start + e.compressed);
    let produced: number;
    if (e.method === 0) produced = data.length;
    else if (e.method === 8) {
      try {
        produced = inflateRawSync(data, { maxOutputLength: budget + 1 }).length;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
          throw bomb(rel, `its XML inflates past ${cap} bytes`);
        throw damaged(rel, `entry ${e.name} does not inflate (${(err as Error).message})`);
      }
    } else throw damaged(rel, `entry ${e.name} uses compression method ${e.method}`);
    budget -= produced;
    if (budget < 0) throw bomb(rel, `its XML inflates past ${cap} bytes`);
  }
}
