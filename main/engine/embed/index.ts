/** The embedding part of the engine: model registry, built-in model, worker-pool embedder. */
export { createEmbedder } from './embedder.js';
export type { CairnEmbedder, EmbedderOptions } from './embedder.js';
export { MODELS, listModels, resolveModel, findLocalModel, hasModelFiles, localCandidates, onnxFileFor } from './registry.js';
export type { ModelSpec, ResolvedModel, RegistryOptions, Pooling, ModelDtype } from './registry.js';
export { BUILTIN_MODEL_ID, CONVERTER_VERSION, buildUseLiteInto, builtinModelDir, ensureBuiltinModel } from './builtin/build.js';
