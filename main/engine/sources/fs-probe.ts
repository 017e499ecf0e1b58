import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ErrorCode } from '../../common/errors.js';
import { SNIFF_BYTES } from './defaults.js';
import { fsPath } from '../kernel/path-bytes.js';

/** Maps a Node fs error to the shared error codes, so callers can tell "gone" from "forbidden". */
export function fsErrorCode(err: unknown): ErrorCode {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'not_found';
  if (code === 'EACCES' || code === 'EPERM') return 'forbidden';
  return 'internal';
}

export function fsErrorMessage(path: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException | undefined;
  const why =
    e?.code === 'ENOENT'
      ? 'no such file'
      : e?.code === 'EACCES' || e?.code === 'EPERM'
        ? 'permission denied'
        : (e?.message ?? String(err));
  return `cannot read ${path}: ${why}${e?.code ? ` (${e.code})` : ''}`;
}

export interface FileProbe {
  isFile: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** Up to SNIFF_BYTES from the start; empty when not read (not a file, or over the size limit). */
  head: Buffer;
}

/**
 * Opens a file once to learn its type, size and first bytes. Non-blocking open, so a path swapped
 * for a FIFO after the directory was listed cannot hang the walk. Throws the raw fs error.
 */
export async function probeFile(path: string, maxFileBytes: number): Promise<FileProbe> {
  const fh = await open(fsPath(path), constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await fh.stat();
    const probe: FileProbe = {
      isFile: st.isFile(),
      size: st.size,
      mtimeMs: st.mtimeMs,
      ctimeMs: st.ctimeMs,
      ino: st.ino,
      head: Buffer.alloc(0),
    };
    if (!probe.isFile || st.size > maxFileBytes) return probe;
    const buf = Buffer.alloc(Math.min(SNIFF_BYTES, st.size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    probe.head = buf.subarray(0, bytesRead);
    return probe;
  } finally {
    await fh.close();
  }
}
