/**
 * How grep reads a file the walk named (sources/walk.ts `walkNames`): through its folder's door,
 * with the checks the walk left to the reader (regular file, size, NUL sniff), so grep searches
 * exactly the files the index covers.
 */
import { closeSync, readSync } from 'node:fs';
import { DOCUMENT_EXTENSIONS, SNIFF_BYTES, extensionOf, looksBinary } from '../sources/defaults.js';
import type { FolderAccess } from '../sources/access.js';

/** One file the walk accepts by name and type, with the index of the call's folder it belongs to. */
export interface WalkedFile {
  path: string;
  rel: string;
  /** Which of the call's folders it belongs to. */
  folder: number;
}

/**
 * Reads whole files into one growing buffer, reused from file to file: grep looks at each file once
 * and keeps only strings, so a fresh allocation per file would only feed the garbage collector.
 * Every file is opened through its folder's door (sources/access.ts), and read from that descriptor.
 */
export class FileReader {
  private scratch = Buffer.allocUnsafe(1 << 16);

  /** The file's bytes (valid until the next read), or null when the walk would leave it out (not a regular file, too large, binary, refused) or it cannot be read. */
  read(access: FolderAccess, abs: string): Buffer | null {
    const maxFileBytes = access.opts.maxFileBytes;
    let opened;
    try {
      // The walk applied the rules to this name; the door still checks where the descriptor leads.
      opened = access.openSync(abs, true);
    } catch {
      return null;
    }
    const { fd, stat: st } = opened;
    try {
      // A file that reports size 0 may still have content (readFile would find it): read it to EOF.
      const cap = st.size > 0 ? st.size : maxFileBytes + 1;
      if (st.size > 0) this.ensure(st.size);
      let got = 0;
      for (;;) {
        if (got === this.scratch.length) this.ensure(Math.min(cap, got * 2));
        const n = readSync(fd, this.scratch, got, Math.min(this.scratch.length, cap) - got, null);
        if (n === 0) break;
        got += n;
        if (got >= cap) break;
      }
      if (got > maxFileBytes) return null;
      const bytes = this.scratch.subarray(0, got);
      if (!DOCUMENT_EXTENSIONS.has(extensionOf(abs)) && looksBinary(bytes.subarray(0, SNIFF_BYTES))) return null;
      return bytes;
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }

  private ensure(size: number): void {
    if (size <= this.scratch.length) return;
    const next = Buffer.allocUnsafe(Math.max(size, this.scratch.length * 2));
    this.scratch.copy(next);
    this.scratch = next;
  }
}
