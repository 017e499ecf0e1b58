/**
 * The embedding runtime for every other model: a transformers.js feature-extraction pipeline, which
 * also downloads a hub model the first time. Imported only when needed, so a worker of the
 * built-in model never loads transformers.js (embed/onnx-extractor.ts).
 */
import { boundedFetch } from './hub.js';
import type { Extractor } from './extractor.js';
import type { FromWorker, WorkerConfig } from './protocol.js';

type Pipeline = ((
  texts: string[],
  opts: { pooling: 'mean' | 'cls'; normalize: boolean },
) => Promise<{ dims: number[]; data: Float32Array }>) & { dispose?: () => Promise<void> };

export async function loadPipelineExtractor(config: WorkerConfig, send: (msg: FromWorker) => void): Promise<Extractor> {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowLocalModels = true;
  env.localModelPath = config.modelsDir;
  env.cacheDir = config.modelsDir;
  env.allowRemoteModels = config.allowRemote;
  env.fetch = boundedFetch(config.hubTimeoutMs);
  if (config.remoteHost) env.remoteHost = config.remoteHost;
  const extractor = (await pipeline('feature-extraction', config.modelRef, {
    dtype: config.dtype,
    // The same session options as onnx-extractor.ts, for the same reasons.
    session_options: { intraOpNumThreads: 1, interOpNumThreads: 1, enableMemPattern: false },
    progress_callback: (p: { status: string; file?: string; loaded?: number; total?: number }) => {
      if (p.status === 'progress' && p.file)
        send({ type: 'progress', file: p.file, loaded: p.loaded ?? 0, total: p.total ?? 0 });
    },
  })) as unknown as Pipeline;
  return {
    async embed(texts) {
      const out = await extractor(texts, { pooling: config.pooling, normalize: true });
      return { dimensions: out.dims[out.dims.length - 1], data: new Float32Array(out.data) };
    },
    dispose: async () => {
      await extractor.dispose?.();
    },
  };
}
