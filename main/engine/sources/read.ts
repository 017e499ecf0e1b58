import { open, readFile } from 'node:fs/promises';
import { CairnError } from '../errors.js';
import type { ErrorCode } from '../../common/errors.js';
import { SNIFF_BYTES } from './defaults.js';

/** Maps a Node fs error to the shared error codes, so callers can tell "gone" from "forbidden". */
export function fsErrorCode(err: unknown): ErrorCode {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'not_found';
  if (code === 'EACCES' || code === 'EPERM') return 'forbidden';
  return 'internal';
}

export function fsErrorMessage(path: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException | undefined;
  const why = e?.code === 'ENOENT' ? 'no such file' : e?.code === 'EACCES' || e?.code === 'EPERM' ? 'permission denied' : e?.message ?? String(err);
  return `cannot read ${path}: ${why}${e?.code ? ` (${e.code})` : ''}`;
}

/** Reads a whole file; failures become a CairnError naming the file (not_found / forbidden / internal). */
export async function readSourceFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new CairnError(fsErrorCode(err), fsErrorMessage(path, err), { details: { path, errno: (err as NodeJS.ErrnoException).code }, cause: err });
  }
}

/** Reads up to SNIFF_BYTES from the start of a file (throws the raw fs error). */
export async function readHead(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
