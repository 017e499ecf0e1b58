/**
 * An embedding worker thread: loads one transformers.js feature-extraction pipeline and embeds
 * the batches it is sent. ONNX Runtime gets one intra-op thread per worker, so the pool's size is
 * the number of cores used.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { env, pipeline } from '@huggingface/transformers';
import { boundedFetch } from './hub.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';

const config = workerData as WorkerConfig;
const port = parentPort;
if (!port) throw new Error('worker.ts must run as a worker thread');
const send = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

env.allowLocalModels = true;
env.localModelPath = config.modelsDir;
env.cacheDir = config.modelsDir;
env.allowRemoteModels = config.allowRemote;
env.fetch = boundedFetch(config.hubTimeoutMs);
if (config.remoteHost) env.remoteHost = config.remoteHost;

type Extractor = (
  texts: string[],
  opts: { pooling: 'mean' | 'cls'; normalize: boolean },
) => Promise<{ dims: number[]; data: Float32Array }>;

async function load(): Promise<Extractor> {
  const extractor = await pipeline('feature-extraction', config.modelRef, {
    dtype: config.dtype,
    // Without memory patterns: ONNX Runtime plans and keeps a buffer layout per input shape, and
    // batches of texts come in every shape. Alone, a worker of the built-in model peaked 425 -> 337
    // MB over 20 batches of 32 texts at the same speed; `indexing-rss --quick` 688 -> 662 MB, and
    // `concurrency --quick` 455 -> 443 MB. (Without the CPU arena too it was twice as slow.)
    session_options: { intraOpNumThreads: 1, interOpNumThreads: 1, enableMemPattern: false },
    progress_callback: (p: { status: string; file?: string; loaded?: number; total?: number }) => {
      if (p.status === 'progress' && p.file)
        send({ type: 'progress', file: p.file, loaded: p.loaded ?? 0, total: p.total ?? 0 });
    },
  });
  return extractor as unknown as Extractor;
}

async function embed(extractor: Extractor, texts: string[]): Promise<{ dimensions: number; data: Float32Array }> {
  // An empty string has no tokens under USE-lite's tokenizer, and mean pooling over nothing is NaN.
  const out = await extractor(
    texts.map((t) => (t.length === 0 ? ' ' : t)),
    { pooling: config.pooling, normalize: true },
  );
  return { dimensions: out.dims[out.dims.length - 1], data: new Float32Array(out.data) };
}

/*
 * Ending a worker from outside (terminate) while ONNX Runtime runs or releases a session aborts
 * the whole process ("terminate called after throwing an instance of 'Napi::Error'"). So the pool
 * asks instead: the worker finishes its batch, disposes the pipeline and exits by itself.
 */
let extractor: (Extractor & { dispose?: () => Promise<void> }) | null = null;
let loaded = false;
let closing = false;
let inflight: Promise<unknown> = Promise.resolve();

async function shutdown(): Promise<void> {
  await inflight.catch(() => undefined);
  await extractor?.dispose?.().catch(() => undefined);
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
  inflight = embed(ex, msg.texts).then(
    (r) => send({ type: 'result', id: msg.id, dimensions: r.dimensions, data: r.data }, [r.data.buffer as ArrayBuffer]),
    (err: unknown) => send({ type: 'failed', id: msg.id, message: err instanceof Error ? err.message : String(err) }),
  );
});

try {
  extractor = await load();
  // A probe both warms the session up and tells the output size.
  const probe = await embed(extractor, ['probe']);
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
