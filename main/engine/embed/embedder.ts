/**
 * `createEmbedder`: the engine's Embedder over a pool of worker threads. Model files are found
 * locally first (app bundle, then `<dataDir>/models`); the built-in model is converted there at
 * first use; a hub model is downloaded into the same folder only when it is not there, with a
 * bounded wait so an offline machine gets a typed error quickly instead of a hang.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../types.js';
import { CairnError } from '../errors.js';
import { ensureBuiltinModel } from './builtin/build.js';
import { boundedFetch, DEFAULT_HUB_TIMEOUT_MS, hubEndpoint, hubUnavailable } from './hub.js';
import { EmbedPool } from './pool.js';
import { CachedTokenCounter } from './token-counter.js';
import { withPrefix } from './prefixes.js';
import { findLocalModel, onnxFileFor, resolveModel } from './registry.js';
import type { ResolvedModel } from './registry.js';
import { readUnigramTokenizer } from './unigram-files.js';
import type { UnigramTokenizer } from './unigram-tokenizer.js';

/** transformers.js' own hub address, restored after a caller used a test double. */
let defaultRemoteHost: string | undefined;

export interface EmbedderOptions {
  /** Registry id, hub id or local model folder. */
  model: string;
  dataDir: string;
  /** Worker threads; default (and 0): one per core. */
  threads?: number;
  /** How long the workers beyond the first stay after the last document batch; default 30 s (embed/pool.ts). */
  extraWorkersIdleMs?: number;
  /** Texts per batch; default 4 (the settings table says why). */
  batchSize?: number;
  onDownloadProgress?: (p: { file: string; loaded: number; total: number }) => void;
  /** Models shipped with the app (`resources/models`), looked at first. */
  bundledModelsDir?: string;
  /** How long to wait for the hub to answer a request; default 15 s. */
  hubTimeoutMs?: number;
  /** Another hub address (a test double of the hub); default `HF_ENDPOINT`, else the hub. */
  remoteHost?: string;
}

/** Words as the coverage check weighs them: runs of letters and digits (CJK runs included whole). */
const WORDS = /[\p{L}\p{N}\p{M}]+/gu;

/** What the main thread needs of the tokenizer: counts for chunk sizing, unknown pieces for coverage. */
type WordTokenizer = Pick<UnigramTokenizer, 'count'> & { hasUnknown: ((word: string) => boolean) | null };

export interface CairnEmbedder extends Embedder {
  readonly model: ResolvedModel;
  /** The worker pool (exposed for diagnostics and tests). */
  readonly pool: EmbedPool;
}

export async function createEmbedder(opts: EmbedderOptions): Promise<CairnEmbedder> {
  const model = resolveModel(opts.model);
  const modelsDir = join(opts.dataDir, 'models');
  const hubTimeoutMs = opts.hubTimeoutMs ?? DEFAULT_HUB_TIMEOUT_MS;
  let dir = findLocalModel(model, opts.dataDir, { bundledModelsDir: opts.bundledModelsDir });
  if (!dir && model.builtin) dir = await ensureBuiltinModel(opts.dataDir);
  if (!dir && model.source === 'local') {
    throw new CairnError(
      'invalid_argument',
      `The model folder ${model.dir} lacks config.json, tokenizer.json, tokenizer_config.json or ${model.dtype === 'fp32' ? 'onnx/model.onnx' : 'onnx/model_quantized.onnx'}.`,
      { details: { model: model.dir } },
    );
  }
  // Remote loading is switched on only for a hub model that is not on disk yet.
  const modelRef = dir ?? (model.hubId as string);
  const allowRemote = dir === null;

  // The tokenizer lives in the main thread too: counting tokens for chunk sizing is cheap and sync.
  // The built-in model's is read straight from its files, so this thread never loads transformers.js
  // (about 40 MB of RSS for the module and its tokenizer; nor do its workers, onnx-extractor.ts).
  const fast = dir && model.dimensions !== null ? await readUnigramTokenizer(dir) : null;
  const { tokenizer, configDims } = fast
    ? { tokenizer: fast, configDims: null }
    : await loadTokenizer(
        modelRef,
        { allowRemote, wantDims: model.dimensions === null, modelsDir, hubTimeoutMs },
        opts,
      );
  const remoteHost = opts.remoteHost ?? hubEndpoint();

  const threads = opts.threads && opts.threads > 0 ? opts.threads : availableParallelism();
  const batchSize = Math.max(1, opts.batchSize ?? 4);
  const pool = new EmbedPool({
    size: threads,
    config: () => {
      const local = dir ?? findLocalModel(model, opts.dataDir, { bundledModelsDir: opts.bundledModelsDir });
      const ref = local ?? modelRef;
      return {
        modelRef: ref,
        modelsDir,
        allowRemote: local === null,
        dtype: model.dtype,
        onnxFile: onnxFileFor(model.dtype),
        pooling: model.pooling,
        hubTimeoutMs,
        remoteHost,
      };
    },
    onProgress: opts.onDownloadProgress,
    extraWorkersIdleMs: opts.extraWorkersIdleMs,
  });
  try {
    await pool.start();
  } catch (err) {
    await pool.close();
    throw allowRemote ? hubUnavailable(modelRef, err) : err;
  }
  const dimensions = pool.dimensions;
  const expected = model.dimensions ?? configDims;
  if (expected !== null && expected !== dimensions) {
    await pool.close();
    throw new CairnError(
      'config_invalid',
      `Model ${model.id} returns ${dimensions}-dimensional vectors, expected ${expected}.`,
      { details: { model: model.id } },
    );
  }

  const counter = new CachedTokenCounter(tokenizer.count);
  const hasUnknown = tokenizer.hasUnknown;
  const known = new Map<string, boolean>();
  return {
    modelId: model.id,
    dimensions,
    maxTokens: model.maxTokens,
    model: { ...model, dimensions },
    pool,

    async embedDocuments(texts, onProgress, gate) {
      const prefixed = withPrefix(model, 'document', texts);
      // Batches of similar length pad less; vectors do not depend on batch company.
      const order = prefixed.map((_, i) => i).sort((a, b) => prefixed[a].length - prefixed[b].length);
      const out = new Array<Float32Array>(texts.length);
      let done = 0;
      // Two batches per worker in flight keep every worker busy; the rest waits here, behind the
      // gate, instead of in the pool's queue where a pause or cancel could not reach it.
      const window = Math.max(2, pool.size * 2);
      const inFlight = new Set<Promise<void>>();
      try {
        for (let start = 0; start < order.length; start += batchSize) {
          while (inFlight.size >= window) await Promise.race(inFlight);
          await gate?.();
          const idx = order.slice(start, start + batchSize);
          const batch = pool.run(idx.map((i) => prefixed[i])).then((vectors) => {
            idx.forEach((i, k) => (out[i] = vectors[k]));
            done += idx.length;
            onProgress?.(done);
          });
          inFlight.add(batch);
          void batch.then(
            () => inFlight.delete(batch),
            () => undefined,
          );
        }
        await Promise.all(inFlight);
      } finally {
        // A gate that threw or a failed batch: the batches still running must not reject unheard.
        for (const b of inFlight) b.catch(() => undefined);
      }
      return out;
    },

    async embedQuery(text) {
      // Queries jump the queue: a search should not wait behind a folder being indexed.
      const [v] = await pool.run(withPrefix(model, 'query', [text]), true);
      return v;
    },

    countTokens(text) {
      return counter.count(text);
    },

    coverage(text) {
      if (!hasUnknown) return 1;
      let total = 0;
      let ok = 0;
      for (const word of text.match(WORDS) ?? []) {
        let k = known.get(word);
        if (k === undefined) {
          if (known.size > 50_000) known.clear();
          // Unknown: an <unk> piece, or spelled out letter by letter (a script the vocabulary
          // holds only as single characters, e.g. Cyrillic in an English model).
          k = !hasUnknown(word) && tokenizer.count(word) <= Math.max(2, Math.ceil([...word].length * 0.6));
          known.set(word, k);
        }
        const n = [...word].length;
        total += n;
        if (k) ok += n;
      }
      return total === 0 ? 1 : ok / total;
    },

    close: () => pool.close(),
  };
}

/** Any other model's tokenizer (and config, for its width) through transformers.js, from disk or the hub. */
async function loadTokenizer(
  modelRef: string,
  {
    allowRemote,
    wantDims,
    modelsDir,
    hubTimeoutMs,
  }: { allowRemote: boolean; wantDims: boolean; modelsDir: string; hubTimeoutMs: number },
  opts: EmbedderOptions,
): Promise<{ tokenizer: WordTokenizer; configDims: number | null }> {
  const { AutoConfig, AutoTokenizer, env } = await import('@huggingface/transformers');
  defaultRemoteHost ??= env.remoteHost;
  env.allowLocalModels = true;
  env.localModelPath = modelsDir;
  env.cacheDir = modelsDir;
  env.allowRemoteModels = allowRemote;
  env.fetch = boundedFetch(hubTimeoutMs);
  env.remoteHost = opts.remoteHost ?? hubEndpoint() ?? defaultRemoteHost;
  try {
    const progress_callback = (p: { status: string; file?: string; loaded?: number; total?: number }) => {
      if (p.status === 'progress' && p.file)
        opts.onDownloadProgress?.({ file: p.file, loaded: p.loaded ?? 0, total: p.total ?? 0 });
    };
    const t = (await AutoTokenizer.from_pretrained(modelRef, { progress_callback })) as unknown as {
      encode(text: string, o?: { add_special_tokens?: boolean }): number[];
      unk_token_id?: number;
      model?: { unk_token_id?: number };
    };
    let configDims: number | null = null;
    if (wantDims) {
      const config = (await AutoConfig.from_pretrained(modelRef, { progress_callback })) as unknown as {
        hidden_size?: number;
      };
      configDims = config.hidden_size ?? null;
    }
    // Special tokens are counted once per text by the model, not per word: words are encoded bare.
    const encode = (word: string) => t.encode(word, { add_special_tokens: false });
    const unkId = t.unk_token_id ?? t.model?.unk_token_id;
    return {
      tokenizer: {
        count: (word) => encode(word).length,
        hasUnknown: unkId === undefined ? null : (word) => encode(word).includes(unkId),
      },
      configDims,
    };
  } catch (err) {
    if (allowRemote) throw hubUnavailable(modelRef, err);
    throw new CairnError(
      'dependency_unavailable',
      `Cannot load the tokenizer of ${modelRef}: ${(err as Error).message}`,
      { details: { model: modelRef }, cause: err },
    );
  } finally {
    env.allowRemoteModels = false;
  }
}
