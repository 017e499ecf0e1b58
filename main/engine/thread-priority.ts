import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the CPU priority of the calling thread, for workers that run work a request handed in
 * (a user's regex, a document's extraction): however much CPU they burn until their deadline,
 * the main thread, which answers every other client, is scheduled first. On Linux a thread's id
 * is a valid setpriority() target and `/proc/thread-self` names it; elsewhere this does nothing.
 */
export function lowerThreadPriority(nice = 10): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Best effort: an old kernel or a sandbox without /proc keeps the default priority.
  }
}
