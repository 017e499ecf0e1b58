import { chmod, rename, rm, writeFile } from 'node:fs/promises';

let scratch = 0;

/** A name beside `file` that no other writer uses: this process's pid and a counter. */
export function scratchName(file: string, kind = 'tmp'): string {
  return `${file}.${process.pid}.${++scratch}.${kind}`;
}

/**
 * Replaces `file` whole: written beside it, then renamed over it, so a reader finds the old
 * content or the new, never a part (a lock, a settings marker, a client's config). With `mode`
 * the scratch file is created fresh with it and set to it exactly, so a secret is never readable
 * by others, not even for a moment. The scratch file is gone afterwards, also after a failure.
 */
export async function writeFileAtomic(file: string, text: string, opts: { mode?: number } = {}): Promise<void> {
  const tmp = scratchName(file);
  try {
    if (opts.mode === undefined) await writeFile(tmp, text);
    else {
      // A file a killed process left under this name could carry other bits: never reused.
      await rm(tmp, { force: true });
      await writeFile(tmp, text, { mode: opts.mode, flag: 'wx' });
      await chmod(tmp, opts.mode);
    }
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
}
