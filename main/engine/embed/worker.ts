/**
 * An embedding worker thread: loads one model and embeds the batches it is sent. ONNX Runtime gets
 * one intra-op thread per worker, so the pool's size is the number of cores used. The built-in
 * model runs on ONNX Runtime directly (onnx-extractor.ts), any other through transformers.js.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Extractor } from './extractor.js';
import { loadOnnxExtractor } from './onnx-extractor.js';
import { loadPipelineExtractor } from './pipeline-extractor.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';

const config = workerData as WorkerConfig;
const port = parentPort;
if (!port) throw new Error('worker.ts must run as a worker thread');
const send = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

/*
 * Ending a worker from outside (terminate) while ONNX Runtime runs or releases a session aborts
 * the whole process ("terminate called after throwing an instance of 'Napi::Error'"). So the pool
 * asks instead: the worker finishes its batch, releases its model and exits by itself.
 */
let extractor: Extractor | null = null;
let loaded = false;
let closing = false;
let inflight: Promise<unknown> = Promise.resolve();

async function shutdown(): Promise<void> {
  await inflight.catch(() => undefined);
  await extractor?.dispose().catch(() => undefined);
  port?.close();
  process.exit(0);
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'close') {
    closing = true;
    if (loaded) void shutdown();
    return;
  }
  const ex = extractor;
  if (!ex || closing) {
    send({ type: 'failed', id: msg.id, message: 'the embedding worker is closing' });
    return;
  }
  // An empty text has no tokens, and mean pooling over nothing is NaN: it is embedded as one space.
  inflight = ex.embed(msg.texts.map((t) => (t.length === 0 ? ' ' : t))).then(
    (r) => send({ type: 'result', id: msg.id, dimensions: r.dimensions, data: r.data }, [r.data.buffer as ArrayBuffer]),
    (err: unknown) => send({ type: 'failed', id: msg.id, message: err instanceof Error ? err.message : String(err) }),
  );
});

try {
  extractor = (await loadOnnxExtractor(config)) ?? (await loadPipelineExtractor(config, send));
  // A probe both warms the session up and tells the output size.
  const probe = await extractor.embed(['probe']);
  loaded = true;
  if (closing) await shutdown();
  send({ type: 'ready', dimensions: probe.dimensions });
} catch (err) {
  const e = err as Error & { cause?: unknown };
  const cause = e.cause instanceof Error ? ` (${e.cause.message})` : '';
  send({ type: 'fatal', message: `${e.message ?? String(err)}${cause}` });
  // Let the message flush, then end: the pool sees the exit and reports the fatal message.
  setImmediate(() => process.exit(1));
}
