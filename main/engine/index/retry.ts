import { CairnError } from '../errors.js';

/** Conflicts retried so far in this process (a test provokes one and checks that it was retried). */
export const conflictRetries = { count: 0 };

/** LanceDB commits can race with background maintenance; a conflict is retried, anything else is not. */
export async function retryOnConflict<T>(fn: () => Promise<T>, attempts = 6): Promise<T> {
  let delay = 25;
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      const msg = (err as Error).message ?? '';
      if (i >= attempts || !/conflict|retryable|concurrent/i.test(msg)) throw err;
      conflictRetries.count++;
      await new Promise((r) => setTimeout(r, delay));
      delay *= 2;
    }
  }
}

/** ENOSPC as Node reports it, and as LanceDB's Rust I/O layer words it. */
const DISK_FULL = /ENOSPC|no space left on device|os error 28|disk quota exceeded|EDQUOT|os error 122/i;

export function isDiskFull(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return e?.code === 'ENOSPC' || e?.code === 'EDQUOT' || DISK_FULL.test(e?.message ?? String(err));
}

/**
 * A full disk is named as such (with what to do), not passed on as LanceDB's internal I/O error:
 * a failed commit leaves the table at its last version, so everything committed keeps serving and
 * the same job completes once there is space again.
 */
export function asIndexWriteError(err: unknown, indexDir?: string): unknown {
  if (err instanceof CairnError || !isDiskFull(err)) return err;
  const where = indexDir ? ` (${indexDir})` : '';
  return new CairnError(
    'disk_full',
    `The disk holding the index is full${where}: no space left on device. What was indexed before keeps serving.`,
    {
      remedy: 'Free space on that disk, then index the folder again (cairn index); the job resumes where it stopped.',
      cause: err,
    },
  );
}
