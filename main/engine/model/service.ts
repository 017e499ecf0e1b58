import type { EngineStatus, IndexContract, ModelSwitchStatus } from '../../common/status.js';
import type { SettingsStore } from '../config/settings-store.js';
import { modelInfo } from '../embed/registry.js';
import { CairnError } from '../errors.js';
import { FTS_SETTINGS } from '../index/contract.js';
import type { IndexStore } from '../index/store.js';
import { Embeddings } from '../ingest/embeddings.js';
import { CHUNKER_VERSION } from '../parse/index.js';
import type { SearchDeps } from '../search/searcher.js';
import type { Embedder } from '../types.js';
import { ModelSwitch } from './switch.js';

export interface ModelDeps {
  store: IndexStore;
  settings: SettingsStore;
  dataDir: string;
  /** Models shipped with the desktop app, looked up before the data folder. */
  bundledModelsDir?: string;
}

/**
 * The configured embedding model over the engine's life: the one in use (loaded on first use),
 * its replacement when the embedding settings change, a switch to another model that is checked
 * before it is configured, and what status says of it.
 */
export class ModelService {
  private current: Embeddings;
  private readonly switcher: ModelSwitch;
  /** Closing replaced models and what follows (the contract read again): close() waits for it. */
  private work: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ModelDeps) {
    this.current = this.make();
    this.switcher = new ModelSwitch(
      (id) => this.make(id),
      (id) => deps.settings.set({ 'embedding.model': id }),
      deps.dataDir,
    );
  }

  private make(modelId: string = this.deps.settings.get('embedding.model')): Embeddings {
    return new Embeddings(this.deps.store, modelId, {
      dataDir: this.deps.dataDir,
      bundledModelsDir: this.deps.bundledModelsDir,
      threads: this.deps.settings.get('embedding.threads'),
      batchSize: this.deps.settings.get('embedding.batch_size'),
    });
  }

  get embeddings(): Embeddings {
    return this.current;
  }

  /**
   * The embedding settings changed: the new model serves from now on (synchronously, so a query
   * right after sees it); the old one's workers close in the background, then `after` runs.
   */
  replace(after: () => Promise<void>): void {
    const old = this.current;
    this.current = this.make();
    this.work = this.work
      .then(async () => {
        await old.close();
        await after();
      })
      .catch(() => undefined);
  }

  /** The configured model, loaded on first use. */
  embedder(): Promise<Embedder> {
    return this.current.get();
  }

  /**
   * What a vector search needs of the model. A model still loading holds nothing of the index:
   * its load runs `outside` the search gate, so other searches go on meanwhile.
   */
  async searchVectors(outside: <T>(work: () => Promise<T>) => Promise<T>): ReturnType<SearchDeps['vectors']> {
    const embeddings = this.current;
    const embedder = await (embeddings.state === 'ready' ? embeddings.get() : outside(() => embeddings.get()));
    const vectors = await embeddings.vectorReads(true);
    if (!vectors) throw new CairnError('dependency_unavailable', 'the model reports no dimensions');
    return { embedder, vectors, weight: embeddings.fusionWeight, codeWeight: embeddings.codeFusionWeight };
  }

  /** The contract an index built now with this model would have (index/contract-guard.ts compares). */
  wantedContract(): IndexContract {
    return {
      embedding_model: this.current.spec.id,
      embedding_dimensions: this.current.dimensions ?? 0,
      chunker_version: CHUNKER_VERSION,
      fts: { ...FTS_SETTINGS },
    };
  }

  /** Starts loading (downloading, for a hub model not on disk) the configured model; status follows it. */
  prepare(): void {
    this.current.get().catch(() => undefined);
  }

  /** Downloads and checks `modelId`, then configures it; the current model serves until then. */
  switchTo(modelId: string): ModelSwitchStatus {
    return this.switcher.start(modelId, this.deps.settings.get<string>('embedding.model'));
  }

  switchStatus(): ModelSwitchStatus | null {
    return this.switcher.status();
  }

  status(): EngineStatus['model'] {
    const e = this.current;
    return {
      ...modelInfo(e.spec, e.dimensions ?? 0, e.state !== 'error'),
      state: e.state,
      ...(e.error ? { error: e.error } : {}),
      ...(e.remedy ? { remedy: e.remedy } : {}),
      ...(e.download ? { download: e.download } : {}),
    };
  }

  /** Ends a switch in progress and waits for replaced models to close. */
  async settle(): Promise<void> {
    await this.switcher.close();
    await this.work;
  }

  close(): Promise<void> {
    return this.current.close();
  }
}
