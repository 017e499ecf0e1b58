/**
 * The embedding runtime for models whose tokenizer Cairn reproduces exactly (the built-in model and
 * copies of it): ONNX Runtime called directly, with the Unigram tokenizer, padding, truncation and
 * pooling done here. transformers.js gives the same vectors (test/embed/onnx-extractor.test.ts) but
 * costs every worker its module graph and buffers: a process running one worker of the built-in
 * model over 20 batches of 16 texts peaked at 289 MB through transformers.js, and at 204 MB calling
 * ONNX Runtime directly on batches at least as long (42 MB with no worker).
 */
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import type { Extractor } from './extractor.js';
import type { WorkerConfig } from './protocol.js';
import { readUnigramTokenizerSync } from './unigram-files.js';

/** The inputs fed; a model that wants any other falls back to transformers.js. */
const FED = new Set(['input_ids', 'attention_mask', 'token_type_ids']);
/** The outputs transformers.js' feature-extraction pipeline reads, in its order. */
const OUTPUTS = ['last_hidden_state', 'logits', 'token_embeddings'];

/** Null when the folder's tokenizer or model is not one this runtime reproduces (the caller uses transformers.js). */
export async function loadOnnxExtractor(config: WorkerConfig): Promise<Extractor | null> {
  if (config.allowRemote) return null;
  const tokenizer = readUnigramTokenizerSync(config.modelRef);
  const maxLength = tokenizer?.maxLength ?? null;
  if (!tokenizer || maxLength === null) return null;
  const session = await ort.InferenceSession.create(join(config.modelRef, config.onnxFile), {
    // One intra-op thread per worker: the pool's size is the number of cores used. Without memory
    // patterns: ONNX Runtime plans and keeps a buffer layout per input shape, and batches come in
    // every shape (a transformers.js worker peaked 425 -> 337 MB over 20 batches of 32 texts, at the
    // same speed). The CPU arena stays: without it a worker was 1.5x slower and peaked higher.
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    enableMemPattern: false,
  });
  const output = OUTPUTS.find((name) => session.outputNames.includes(name));
  if (!output || !session.inputNames.every((name) => FED.has(name))) {
    await session.release();
    return null;
  }
  const wants = new Set(session.inputNames);
  return {
    async embed(texts) {
      const ids = texts.map((t) => tokenizer.encode(t).slice(0, maxLength));
      const rows = ids.length;
      const width = Math.max(1, ...ids.map((r) => r.length));
      const inputIds = new BigInt64Array(rows * width);
      const mask = new BigInt64Array(rows * width);
      // Padding stays 0: masked positions reach neither attention nor the pooled vector.
      ids.forEach((row, r) => {
        for (let k = 0; k < row.length; k++) {
          inputIds[r * width + k] = BigInt(row[k]);
          mask[r * width + k] = 1n;
        }
      });
      const shape = [rows, width];
      const feeds: Record<string, ort.Tensor> = {
        input_ids: new ort.Tensor('int64', inputIds, shape),
        attention_mask: new ort.Tensor('int64', mask, shape),
      };
      if (wants.has('token_type_ids'))
        feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(rows * width), shape);
      const result = await session.run(feeds, [output]);
      const hidden = result[output];
      const dimensions = hidden.dims[hidden.dims.length - 1];
      const data = pool(hidden.data as Float32Array, ids, width, dimensions, config.pooling);
      hidden.dispose();
      return { dimensions, data };
    },
    dispose: () => session.release(),
  };
}

/** Mean over each row's real tokens (or its first token's state), then unit length, as transformers.js does. */
function pool(
  hidden: Float32Array,
  ids: number[][],
  width: number,
  dimensions: number,
  pooling: WorkerConfig['pooling'],
): Float32Array {
  const out = new Float32Array(ids.length * dimensions);
  // Sums in doubles, as transformers.js does, so the vectors agree with its to the last bit or so.
  const sum = new Float64Array(dimensions);
  ids.forEach((row, r) => {
    const tokens = pooling === 'cls' ? 1 : row.length;
    sum.fill(0);
    for (let k = 0; k < tokens; k++) {
      const at = (r * width + k) * dimensions;
      for (let d = 0; d < dimensions; d++) sum[d] += hidden[at + d];
    }
    let sq = 0;
    for (let d = 0; d < dimensions; d++) {
      // Rounded to float32 before the norm, as transformers.js' pooled tensor is.
      const mean = Math.fround(sum[d] / tokens);
      out[r * dimensions + d] = mean;
      sq += mean * mean;
    }
    const norm = Math.sqrt(sq);
    for (let d = r * dimensions; d < (r + 1) * dimensions; d++) out[d] /= norm;
  });
  return out;
}
