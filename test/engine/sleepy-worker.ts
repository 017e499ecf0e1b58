// A worker for worker-pool-sequential.test.ts: each job blocks its thread for `ms` (so the jobs it
// holds run strictly one after another), then answers; `exit` ends the thread instead, as a crash.
import { parentPort, workerData } from 'node:worker_threads';

// A worker that cannot start (a module that fails to load).
if ((workerData as { dieAtStart?: boolean } | undefined)?.dieAtStart) process.exit(4);

const port = parentPort as NonNullable<typeof parentPort>;
const cell = new Int32Array(new SharedArrayBuffer(4));
port.on('message', (m: { id: number; ms: number; exit?: boolean }) => {
  if (m.exit) process.exit(3);
  Atomics.wait(cell, 0, 0, m.ms);
  port.postMessage({ type: 'done', id: m.id });
});
port.postMessage({ type: 'ready' });
