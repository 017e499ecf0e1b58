import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { GrepResult, ReadResult, SearchResponse } from '../common/search.js';
import {
  parseGrepRequest,
  type GrepRequest,
  type ReadRequest,
  type SearchDefaults,
  type SearchRequest,
} from '../common/requests.js';
import type { FolderSpec } from '../common/settings.js';
import type { EngineStatus, FolderStatus, IndexContract, JobInfo, ModelSwitchStatus } from '../common/status.js';
import type { EngineApi } from './api.js';
import type { FolderFilesRequest, FolderFilesResponse } from '../common/files.js';
import type { UpdateFolderRequest } from '../common/admin.js';
import { listFolderFiles, parseFileListQuery } from './folders/file-list.js';
import { SkipLog, skipLogDir } from './ingest/skip-log.js';
import type { DataPaths } from './config/paths.js';
import type { SettingsStore } from './config/settings-store.js';
import { takeDataFolder, type DataFolder } from './data-folder.js';
import { argumentsOf, CairnError } from './errors.js';
import { grepFolders } from './read-grep/grep.js';
import { readLines } from './read-grep/read.js';
import { FolderRegistry } from './folders/registry.js';
import { FolderStates } from './folders/states.js';
import { FolderSync } from './folders/sync.js';
import { FTS_SETTINGS, readContract } from './index/contract.js';
import { ContractGuard } from './index/contract-guard.js';
import { DamageWatch } from './index/damage.js';
import { IndexStore } from './index/store.js';
import { DEFAULT_MAINTENANCE, type MaintenanceOptions } from './index/maintenance.js';
import { Indexer, type IndexerOptions } from './ingest/indexer.js';
import { MaintenanceScheduler } from './jobs/maintenance-scheduler.js';
import { RepairInPlace } from './folders/repair.js';
import { JobQueue } from './jobs/queue.js';
import type { EngineLock } from './lock.js';
import { ModelService } from './model/service.js';
import { CHUNKER_VERSION } from './parse/index.js';
import { Searcher } from './search/searcher.js';
import { FilterCache } from './sources/index.js';
import { secretExcludePatterns } from './sources/defaults.js';
import type { Embedder } from './types.js';
import { ENGINE_VERSION } from './version.js';
import { FolderChanges } from './watch/changes.js';
import { waitForFresh } from './watch/fresh-wait.js';
import { LiveUpdates } from './watch/live.js';
import { availableParallelism } from 'node:os';
import { Gate } from './kernel/gate.js';

export { normalizeFolder } from './folders/registry.js';

export interface EngineOptions {
  home: string;
  /** Move an unreadable index aside and start a new one (the rebuild action of `index_corrupt`). */
  repair?: boolean;
  /** Take the data folder's lock (default true). */
  lock?: boolean;
  maintenance?: Partial<MaintenanceOptions>;
  /** How often live updates look again at a folder that vanished or cannot be watched (default 5000 ms; tests shorten it). */
  folderRetryMs?: number;
  /** Models shipped with the desktop app; default `$CAIRN_MODELS_DIR` (set by the Electron shell). */
  bundledModelsDir?: string;
  /**
   * Opened to serve (`cairn serve`, `mcp --stdio`, the desktop app): live updates follow, so no
   * folder reads fresh until its start-up reconcile has finished, from the first status on.
   */
  serving?: boolean;
}

/** How long close() waits for the running job to reach a checkpoint. */
const CLOSE_WAIT_MS = 3000;

/**
 * The composition root: it builds every part once and wires them together; the rules live in the
 * parts (folders/, watch/, index/, model/, jobs/). Everything outside (MCP tools, admin API, CLI,
 * desktop shell) talks to this class through `EngineApi`.
 */
export class Engine implements EngineApi {
  readonly dataDir: string;
  readonly jobsQueue = new JobQueue();
  readonly states: FolderStates;
  /** The damage a rebuild moved the old index aside for (every folder then needs indexing). */
  repairedFrom: CairnError | null = null;
  private readonly registry: FolderRegistry;
  private readonly models: ModelService;
  private readonly contract: ContractGuard;
  private readonly damage: DamageWatch;
  private readonly maintenance: MaintenanceScheduler;
  private readonly repair: RepairInPlace;
  private readonly changes: FolderChanges;
  private readonly filters: FilterCache;
  private readonly sync: FolderSync;
  private readonly indexer: Indexer;
  private readonly searcher: Searcher;
  /** Searches run at once, two per core (kernel/gate.ts): each holds its scans' buffers; the rest queue. */
  private readonly searchGate = new Gate(Math.max(2, 2 * availableParallelism()));
  /** What each folder's walk left out and why (status, the file list); persisted beside the index. */
  private readonly skipLog: SkipLog;
  private live: LiveUpdates | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;

  private constructor(
    readonly paths: DataPaths,
    readonly settings: SettingsStore,
    readonly store: IndexStore,
    private readonly lock: EngineLock | null,
    maintenanceOptions: MaintenanceOptions,
    bundledModelsDir: string | undefined,
    private readonly folderRetryMs: number,
    /** Serving (`cairn serve`, the app): damage found is repaired in place (folders/repair.ts). */
    private readonly serving: boolean,
  ) {
    this.dataDir = paths.root;
    const queue = this.jobsQueue;
    this.registry = new FolderRegistry(settings, paths.root);
    this.models = new ModelService({ store, settings, dataDir: paths.root, bundledModelsDir });
    this.filters = new FilterCache(() => this.indexerOptions());
    this.skipLog = new SkipLog(skipLogDir(paths.index));
    this.indexer = new Indexer(
      store,
      () => this.models.embeddings,
      () => this.indexerOptions(),
      this.filters,
      this.skipLog,
    );
    this.changes = new FolderChanges({
      indexDir: paths.index,
      debounceMs: () => settings.get<number>('watch.debounce_ms'),
      apply: (f) => this.sync.applyChanges(f),
    });
    this.states = new FolderStates(
      store,
      queue,
      this.changes,
      (folder) => this.indexer.secretsExcluded(folder),
      (folder) => this.skipLog.summary(folder),
    );
    this.contract = new ContractGuard({
      store,
      indexDir: paths.index,
      wanted: () => this.wantedContract(),
      folders: () => this.registry.specs().map((f) => f.path),
      keepVectors: () => this.models.embeddings.tableName,
    });
    this.damage = new DamageWatch(store, paths.index, (found) => {
      for (const f of this.registry.specs()) this.states.setFailure(f.path, found.message);
      if (this.serving && !this.closed) this.repair.start(found);
    });
    this.maintenance = new MaintenanceScheduler(
      queue,
      async () => store.maintain(await this.models.embeddings.vectorsName(false), maintenanceOptions),
      maintenanceOptions.keepVersionsMs,
    );
    this.sync = new FolderSync({
      queue,
      store,
      indexer: this.indexer,
      registry: this.registry,
      changes: this.changes,
      states: this.states,
      contract: this.contract,
      damage: this.damage,
      maintenance: this.maintenance,
      repairsInPlace: serving,
    });
    this.repair = new RepairInPlace({
      queue,
      store,
      graph: store.graph,
      damage: this.damage,
      contract: this.contract,
      states: this.states,
      folders: () => this.registry.specs().map((f) => f.path),
      index: (folder) => this.sync.index(folder, 'create'),
    });
    const searchGate = this.searchGate;
    this.searcher = new Searcher({
      reads: store.reads,
      graph: store.graph,
      freshness: (f) => this.states.freshness(f),
      contract: () => this.contract.check,
      vectors: async () => {
        const embeddings = this.models.embeddings;
        // A model still loading holds nothing of the index: other searches go on meanwhile.
        const embedder = await (embeddings.state === 'ready'
          ? embeddings.get()
          : searchGate.outside(() => embeddings.get()));
        const vectors = await embeddings.vectorReads(true);
        if (!vectors) throw new CairnError('dependency_unavailable', 'the model reports no dimensions');
        return {
          embedder,
          vectors,
          weight: embeddings.fusionWeight,
          codeWeight: embeddings.codeFusionWeight,
        };
      },
      settings: () => {
        const s = this.settings.snapshot();
        return {
          folders: s.get<FolderSpec[]>('folders').map((f) => f.path),
          fusion: s.get('search.fusion'),
          rrfK: s.get('search.rrf_k'),
          vectorWeight: s.get('search.vector_weight'),
          vectorWeightCode: s.get('search.vector_weight_code'),
          graphWeight: s.get('search.graph_weight'),
        };
      },
      waitForFresh: (folders, ms) =>
        searchGate.outside(() =>
          waitForFresh(
            {
              live: () => this.live,
              queue,
              changes: this.changes,
              debounceMs: () => settings.get<number>('watch.debounce_ms'),
            },
            folders,
            ms,
          ),
        ),
    });
    settings.onChange((keys) => {
      // A query right after the change already sees the new model and any mismatch.
      if (!keys.some((k) => k.startsWith('embedding.'))) return;
      this.models.replace(() => this.contract.load());
      this.contract.modelChanged();
    });
  }

  static async open(opts: EngineOptions): Promise<Engine> {
    return Engine.openIn(await takeDataFolder(opts.home, { lock: opts.lock }), opts);
  }

  /** Opens the index in a data folder already taken; releases its lock if that fails. */
  static async openIn(folder: DataFolder, opts: EngineOptions): Promise<Engine> {
    const { paths, settings, lock } = folder;
    try {
      const make = (store: IndexStore) => {
        const engine = new Engine(
          paths,
          settings,
          store,
          lock,
          { ...DEFAULT_MAINTENANCE, ...opts.maintenance },
          opts.bundledModelsDir ?? (process.env.CAIRN_MODELS_DIR || undefined),
          opts.folderRetryMs ?? 5000,
          opts.serving === true,
        );
        if (opts.serving && settings.get<boolean>('watch.enabled'))
          engine.states.requireReconcile(engine.folderSpecs().map((f) => f.path));
        return engine;
      };
      let store: IndexStore | null = null;
      try {
        // Every table read-checked and the contract parsed before anything is served or written.
        store = await IndexStore.open(paths.index);
        await store.verify();
        await readContract(paths.index);
        const engine = make(store);
        await engine.load();
        return engine;
      } catch (err) {
        if (!(err instanceof CairnError && err.code === 'index_corrupt' && opts.repair)) {
          await store?.close();
          throw err;
        }
        // A rebuild never merges into damage: the whole index is moved aside (kept for a post
        // mortem) and a new one is built, whatever was broken (a table, the contract file).
        await store?.close();
        await rename(paths.index, `${paths.index}.corrupt-${Date.now()}`);
        const engine = make(await IndexStore.open(paths.index));
        await engine.load();
        engine.repairedFrom = err;
        return engine;
      }
    } catch (err) {
      await lock?.release();
      throw err;
    }
  }

  private indexerOptions(): IndexerOptions {
    return {
      maxFileBytes: this.settings.get('index.max_file_bytes'),
      respectGitignore: this.settings.get('index.respect_gitignore'),
      extraExcludes: this.settings.get('index.extra_excludes'),
      // Never part of any folder (sources/filter.ts): the index, the API key, the lock's admin token.
      dataDir: this.dataDir,
    };
  }

  private wantedContract(): IndexContract {
    const embeddings = this.models.embeddings;
    return {
      embedding_model: embeddings.spec.id,
      embedding_dimensions: embeddings.dimensions ?? 0,
      chunker_version: CHUNKER_VERSION,
      fts: { ...FTS_SETTINGS },
    };
  }

  /** Loads the graph into memory, checks the contract and counts every folder. */
  private async load(): Promise<void> {
    await this.store.loadGraph();
    await this.contract.load();
    for (const f of this.folderSpecs()) await this.store.recount(f.path);
  }

  /**
   * Serving mode (`cairn serve`, the desktop app): watch every folder, reconcile each with the
   * index now, and index folders as soon as they are added.
   */
  async startLiveUpdates(): Promise<void> {
    if (this.closed || this.live || !this.settings.get<boolean>('watch.enabled')) return;
    // Files changed while no engine watched: nothing is fresh until its reconcile has finished.
    this.states.requireReconcile(this.folderSpecs().map((f) => f.path));
    this.live = new LiveUpdates({
      folders: () => this.folderSpecs(),
      changes: this.changes,
      filters: this.filters,
      reconcile: async (folder) => (this.registry.has(folder) ? this.sync.index(folder, 'update').ended() : undefined),
      retryMs: () => this.folderRetryMs,
      barrierDir: join(this.dataDir, 'watch-barrier'),
    });
    await this.live.start();
  }

  folderSpecs(): FolderSpec[] {
    return this.registry.specs();
  }

  /**
   * The configured model, loaded on first use. Public for the benchmarks, which embed their queries
   * ahead of a latency run so that timings are the index's alone.
   */
  embedder(): Promise<Embedder> {
    return this.models.embedder();
  }

  /** Folds new rows into the indexes now (also what tests and benchmarks call before measuring). */
  runMaintenance(): Promise<void> {
    return this.maintenance.runNow();
  }

  private searchDefaults(): SearchDefaults {
    const s = this.settings.snapshot();
    return { mode: s.get('mcp.default_mode'), topK: s.get('mcp.default_top_k') };
  }

  // --- EngineApi -----------------------------------------------------------------------------

  async search(req: SearchRequest, defaults?: SearchDefaults): Promise<SearchResponse> {
    this.assertOpen();
    if (this.damage.current) throw this.damage.current;
    try {
      return await this.searchGate.run(() => this.searcher.search(req, defaults ?? this.searchDefaults()));
    } catch (err) {
      throw await this.damage.name(err);
    }
  }

  async read(req: ReadRequest): Promise<ReadResult> {
    return readLines(req, this.folderSpecs(), this.indexerOptions());
  }

  async grep(req: GrepRequest): Promise<GrepResult> {
    const r = argumentsOf(parseGrepRequest(req));
    const folders = r.folders ? r.folders.map((f) => this.registry.spec(f)) : this.folderSpecs();
    return grepFolders(
      r,
      folders,
      this.indexerOptions(),
      undefined,
      this.settings.get<number>('search.grep_timeout_ms'),
    );
  }

  async folders(): Promise<FolderStatus[]> {
    return this.folderSpecs().map((f) => this.states.status(f));
  }

  async status(): Promise<EngineStatus> {
    const folders = await this.folders();
    const mismatch = this.contract.mismatch;
    return {
      version: ENGINE_VERSION,
      data_dir: this.dataDir,
      folders,
      jobs: this.jobs(),
      model: this.models.status(),
      contract: this.contract.stored,
      contract_mismatch: mismatch ? mismatch.toBody() : null,
      index_damage: this.damage.current ? this.damage.current.toBody() : null,
      index_repair: this.repair.status,
      secret_excludes: secretExcludePatterns(),
      paused: this.jobsQueue.paused,
      model_switch: this.models.switchStatus(),
      totals: folders.reduce(
        (t, f) => ({
          files: t.files + f.files,
          chunks: t.chunks + f.chunks,
          embedded_chunks: t.embedded_chunks + f.embedded_chunks,
        }),
        { files: 0, chunks: 0, embedded_chunks: 0 },
      ),
    };
  }

  async addFolder(input: FolderSpec): Promise<FolderStatus> {
    const spec = await this.registry.checkNew(input);
    this.registry.add(spec);
    await this.store.recount(spec.path);
    if (this.live) await this.live.add(spec);
    return this.states.status(spec);
  }

  async removeFolder(path: string): Promise<void> {
    const spec = this.registry.spec(path);
    this.sync.cancel(spec.path);
    await this.live?.remove(spec.path);
    this.registry.remove(spec.path);
    await this.sync.drop(spec.path);
    await this.skipLog.forget(spec.path);
    this.changes.forget(spec.path);
  }

  async dropIndex(path: string): Promise<void> {
    const folder = this.registry.spec(path).path;
    await this.sync.drop(folder);
    await this.skipLog.forget(folder);
  }

  /** Options that change in place; turning text_only off computes the folder's vectors. */
  async updateFolder(req: UpdateFolderRequest): Promise<FolderStatus> {
    const spec = this.registry.spec(req.path);
    if (req.text_only !== undefined && typeof req.text_only !== 'boolean')
      throw new CairnError('invalid_argument', 'text_only must be true or false', { details: { key: 'text_only' } });
    const next: FolderSpec = { ...spec };
    if (req.text_only === true) next.text_only = true;
    else if (req.text_only === false) delete next.text_only;
    this.registry.replace(next);
    if (spec.text_only === true && next.text_only !== true) this.sync.index(spec.path, 'update');
    return this.states.status(next);
  }

  async folderFiles(req: FolderFilesRequest): Promise<FolderFilesResponse> {
    const query = parseFileListQuery(req);
    const spec = this.registry.spec(query.path);
    const rows = await this.store.listedFiles(spec.path);
    const summary = this.skipLog.summary(spec.path);
    const { entries, complete } = this.skipLog.list(spec.path);
    return listFolderFiles(
      spec.path,
      query,
      rows,
      { entries, complete, byReason: summary?.by_reason ?? {}, total: summary?.total ?? 0 },
      spec.text_only === true,
    );
  }

  async indexFolder(path: string, kind: 'create' | 'update' | 'rebuild'): Promise<JobInfo> {
    return this.sync.index(this.registry.spec(path).path, kind).info();
  }

  jobs(): JobInfo[] {
    return this.jobsQueue.list().map((j) => j.info());
  }

  job(id: string): JobInfo | undefined {
    return this.jobsQueue.get(id)?.info();
  }

  jobAction(id: string, action: 'pause' | 'resume' | 'cancel'): JobInfo {
    return this.jobsQueue.action(id, action).info();
  }

  prepareModel(): void {
    this.models.prepare();
  }

  switchModel(modelId: string): ModelSwitchStatus {
    this.assertOpen();
    return this.models.switchTo(modelId);
  }

  setPaused(paused: boolean): void {
    this.jobsQueue.setPaused(paused);
  }

  idle(): Promise<void> {
    return this.jobsQueue.idle();
  }

  private assertOpen(): void {
    if (this.closed) throw new CairnError('dependency_unavailable', 'the engine is shutting down');
  }

  /** Idempotent: every caller waits for the one shutdown (the lock is released at its end). */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    this.sync.close();
    await this.models.settle();
    this.maintenance.close();
    this.changes.close();
    await this.live?.close();
    this.jobsQueue.cancelAll();
    // The running job stops at its next checkpoint. The timer also keeps the process alive
    // meanwhile (parse and embedding workers are unref'd: awaiting only them, a stopping process
    // would exit with its lock still taken); a job that does not reach a checkpoint in time is
    // left as a kill would leave it, which every write is safe against.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.jobsQueue.idle(), new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    // Changes seen and not applied are remembered for the next start (it begins stale, then rescans).
    await this.changes.saveMarker();
    await this.skipLog.flushed();
    // A model still loading (a hub download) must not hold the stop either.
    await Promise.race([this.models.close(), new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    await this.store.close();
    await this.lock?.release();
  }
}

export async function openEngine(opts: EngineOptions): Promise<Engine> {
  return Engine.open(opts);
}
