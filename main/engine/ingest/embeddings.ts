import { VectorReads } from '../index/search-reads.js';
import type { ModelDownload, ModelState } from '../../common/status.js';
import { DownloadProgress } from '../embed/hub.js';
import { findLocalModel, resolveModel, type ResolvedModel } from '../embed/registry.js';
import { humanLoadError } from '../embed/load-error.js';
import { ensureBuiltinTokenizer } from '../embed/builtin/build.js';
import { CachedTokenCounter } from '../embed/token-counter.js';
import { readUnigramTokenizer, readUnigramTokenizerSync, tokenizerVersion } from '../embed/unigram-files.js';
import { fallbackCount } from './parse-task.js';
import type { IndexStore } from '../index/store.js';
import type { Embedder } from '../types.js';

export type { ModelState };

/** What sizes chunks to the model's window: its tokenizer's counts, with or without the model loaded. */
export interface ChunkTokens {
  countTokens(text: string): number;
  /** Counts of every range of a text after one pass (TokenBudget.countRanges), where the counter has it. */
  countRanges?(text: string): (start: number, end: number) => number;
  /** One word's count (no whitespace). */
  countWord(word: string): number;
  /** The model's folder (its tokenizer.json), for parse workers that count on their own thread. */
  dir: string | null;
}

export interface EmbeddingOptions {
  dataDir: string;
  /** Models shipped with the desktop app (`resources/models`), looked up before the data folder. */
  bundledModelsDir?: string;
  threads: number;
  batchSize: number;
}

/**
 * The configured embedding model: loaded on first use (workers start lazily), its vectors table,
 * and its state for status. A load failure is kept and reported, and retried on the next use.
 */
export class Embeddings {
  state: ModelState = 'missing';
  error: string | undefined;
  remedy: string | undefined;
  private progress: DownloadProgress | null = null;
  private loading: Promise<Embedder> | null = null;
  private embedder: Embedder | null = null;
  private tokenizerCheck: { key: string; ok: Promise<boolean> } | null = null;
  readonly spec: ResolvedModel;

  constructor(
    private readonly store: IndexStore,
    readonly modelId: string,
    private readonly opts: EmbeddingOptions,
  ) {
    this.spec = resolveModel(modelId);
    // Not loaded yet is not missing: a model whose files are here is ready to load.
    this.state =
      this.spec.builtin || findLocalModel(this.spec, opts.dataDir, { bundledModelsDir: opts.bundledModelsDir }) !== null
        ? 'ready'
        : 'missing';
  }

  /** Known from the registry, or from the model's config once loaded (an unknown hub model). */
  get dimensions(): number | null {
    return this.spec.dimensions ?? this.embedder?.dimensions ?? null;
  }

  get tableName(): string | null {
    const d = this.dimensions;
    return d === null ? null : vectorTableName(this.spec.id, d);
  }

  get fusionWeight(): number {
    return this.spec.fusionWeight;
  }

  get codeFusionWeight(): number {
    return this.spec.codeFusionWeight ?? this.spec.fusionWeight;
  }

  /** The model is loaded or loading (its inference workers started). */
  get loaded(): boolean {
    return this.embedder !== null || this.loading !== null;
  }

  async get(): Promise<Embedder> {
    if (this.embedder) return this.embedder;
    if (!this.loading) {
      this.state = 'loading';
      const progress = (this.progress = new DownloadProgress());
      // A hub model that is not on disk arrives file by file: status shows the bytes as they come.
      const onDownloadProgress = (p: { file: string; loaded: number; total: number }) => {
        progress.update(p);
        if (this.state === 'loading') this.state = 'downloading';
      };
      // Loaded on first use: the model and its worker (and, for a model other than the built-in, transformers.js,
      // about a second to import) are what search in sparse mode never needs.
      this.loading = import('../embed/embedder.js')
        .then(({ createEmbedder }) =>
          createEmbedder({
            model: this.modelId,
            dataDir: this.opts.dataDir,
            bundledModelsDir: this.opts.bundledModelsDir,
            threads: this.opts.threads || undefined,
            batchSize: this.opts.batchSize,
            onDownloadProgress,
          }),
        )
        .then((e: Embedder) => {
          this.embedder = e;
          this.state = 'ready';
          this.error = undefined;
          this.remedy = undefined;
          this.progress = null;
          return e;
        })
        .catch((err: unknown) => {
          const typed = humanLoadError(this.modelId, err, this.opts.dataDir);
          this.state = 'error';
          this.error = typed.message;
          this.remedy = typed.remedy;
          this.loading = null;
          this.progress = null;
          throw typed;
        });
    }
    return this.loading as Promise<Embedder>;
  }

  /**
   * Token counts for chunk sizing without the model: text is searchable before, and without, any
   * embedding. The model and its inference workers (hundreds of MB, seconds of CPU to start) load
   * only when vectors are computed. The tokenizer is read from the model's tokenizer.json where
   * its shape is reproduced exactly (the built-in model's); any other tokenizer comes with the
   * loaded model, as before.
   */
  async chunkTokens(): Promise<ChunkTokens> {
    if (this.embedder) return this.fromEmbedder(this.embedder);
    let dir = this.localDir();
    if (!dir && this.spec.builtin) dir = await ensureBuiltinTokenizer(this.opts.dataDir);
    if (!dir || !(await this.reproduced(dir))) return this.fromEmbedder(await this.get());
    // Read on this thread only when something here counts: the parse workers read their own copy, so
    // an ingest on them never does. Read at every ingest, it stalled this thread (and the queries
    // waiting on it) for each watcher batch: 20 one-file updates of a 2k-chunk folder, longest
    // event-loop stall 28-35 ms, now 11-14 ms. Kept between ingests, its vocabulary would be held for nothing.
    const tokensDir = dir;
    let own: { counter: CachedTokenCounter; countWord: (word: string) => number } | null = null;
    const tokens = () => {
      if (own) return own;
      // Gone or changed since the check: the pessimistic count still keeps chunks inside the window.
      const countWord = readUnigramTokenizerSync(tokensDir)?.count ?? fallbackCount;
      return (own = { counter: new CachedTokenCounter(countWord), countWord });
    };
    return {
      countTokens: (t) => tokens().counter.count(t),
      countRanges: (t) => tokens().counter.ranges(t),
      countWord: (w) => tokens().countWord(w),
      dir,
    };
  }

  /**
   * Whether `dir`'s tokenizer is one the Unigram counter reproduces: read in full once per folder
   * and tokenizer.json version (the answer holds until the file changes), not at every ingest.
   */
  private reproduced(dir: string): Promise<boolean> {
    const key = `${dir}\0${tokenizerVersion(dir)}`;
    if (this.tokenizerCheck?.key !== key)
      this.tokenizerCheck = { key, ok: readUnigramTokenizer(dir).then((t) => t !== null) };
    return this.tokenizerCheck.ok;
  }

  private fromEmbedder(e: Embedder): ChunkTokens {
    return { countTokens: (t) => e.countTokens(t), countWord: (w) => e.countTokens(w), dir: this.localDir() };
  }

  /** Bytes of a hub model's files received so far, while it downloads. */
  get download(): ModelDownload | null {
    return this.state === 'downloading' && this.progress?.started ? this.progress.snapshot() : null;
  }

  /** The model's folder on disk (tokenizer.json and config), once it is there. */
  localDir(): string | null {
    return findLocalModel(this.spec, this.opts.dataDir, { bundledModelsDir: this.opts.bundledModelsDir });
  }

  /** The name of the model's vectors table, opened in the store (created with `create`); null when there is none. */
  async vectorsName(create: boolean): Promise<string | null> {
    return (await this.vectorReads(create)) ? this.tableName : null;
  }

  /** The model's vectors as the vector leg reads them (the ingest side goes through the store by name). */
  async vectorReads(create: boolean): Promise<VectorReads | null> {
    const name = this.tableName;
    const d = this.dimensions;
    const table = name === null || d === null ? null : await this.store.vectors(name, d, create);
    return table ? new VectorReads(table) : null;
  }

  async close(): Promise<void> {
    const e = this.embedder ?? (this.loading ? await this.loading.catch(() => null) : null);
    this.embedder = null;
    this.loading = null;
    await e?.close();
  }
}

export function vectorTableName(modelId: string, dimensions: number): string {
  return `vectors__${modelId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')}_${dimensions}`;
}
