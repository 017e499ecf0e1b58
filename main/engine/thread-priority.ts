/**
 * Source that lowers the CPU priority of the thread it runs on, for workers that run work a
 * request handed in (a document's extraction; grep's workers are lowered later, by
 * read-grep/grep-pool.ts) or background indexing: however much CPU they burn until their deadline,
 * the main thread, which answers every other client, is scheduled first. It is the first statement
 * of the worker's bootstrap (worker-script.ts), before any module loads: loading takes seconds of
 * CPU on a busy machine, and threads and processes the worker starts (a native library's pool, a
 * compiler service) inherit the priority it has then.
 * On Linux a thread's id is a valid setpriority() target and `/proc/thread-self` names it;
 * elsewhere this does nothing (best effort, as on a kernel or sandbox without /proc).
 */
export function lowerPriorityPreamble(nice: number): string {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) throw new RangeError(`nice must be 0..19, not ${nice}`);
  return `if (process.platform === 'linux') { try { const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()); if (Number.isInteger(tid) && tid > 0) require('node:os').setPriority(tid, ${nice}); } catch {} }`;
}
