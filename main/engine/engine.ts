import { join } from 'node:path';
import type { GrepResult, ReadResult, SearchResponse } from '../common/search.js';
import { parseGrepRequest } from '../common/requests.js';
import type { GrepRequest, ReadRequest, SearchDefaults, SearchRequest } from '../common/requests.js';
import type { FolderSpec } from '../common/settings.js';
import type { EngineStatus, FolderStatus, JobInfo, ModelSwitchStatus } from '../common/status.js';
import type { EngineApi } from './api.js';
import type { FolderFilesRequest, FolderFilesResponse } from '../common/files.js';
import type { UpdateFolderRequest } from '../common/admin.js';
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
import { ContractGuard } from './index/contract-guard.js';
import { DamageWatch } from './index/damage.js';
import type { IndexStore } from './index/store.js';
import { DEFAULT_MAINTENANCE, type MaintenanceOptions } from './index/maintenance.js';
import { Indexer } from './ingest/indexer.js';
import { MaintenanceScheduler } from './jobs/maintenance-scheduler.js';
import { RepairInPlace } from './folders/repair.js';
import { FolderAdmin } from './folders/folder-admin.js';
import { openIndex } from './folders/open-index.js';
import { JobQueue } from './jobs/queue.js';
import type { EngineLock } from './lock.js';
import { ModelService } from './model/service.js';
import { Searcher } from './search/searcher.js';
import { FilterCache } from './sources/index.js';
import type { Embedder } from './types.js';
import { FolderChanges } from './watch/changes.js';
import { waitForFresh } from './watch/fresh-wait.js';
import { LiveUpdates } from './watch/live.js';
import { availableParallelism } from 'node:os';
import { Gate } from './kernel/gate.js';
import { GatedSearch, searchSettings } from './serve/gated-search.js';
import { engineStatus } from './serve/status-report.js';
import { shutDown } from './serve/shutdown.js';

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
  /**
   * Keep the sparse leg's BM25 in memory (default true). A one-shot command with no engine running
   * (`cairn status`, a search) exits before building it would pay: at 100k chunks the build made
   * `cairn status` take 6.3 s and 444 MB instead of 2.4 s and 270 MB.
   */
  searchMirror?: boolean;
}

/**
 * The composition root: it builds every part once and wires them together; the rules live in the
 * parts (folders/, watch/, index/, model/, jobs/, serve/). Everything outside (MCP tools, admin API, CLI,
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
  private readonly folderAdmin: FolderAdmin;
  private readonly changes: FolderChanges;
  private readonly filters: FilterCache;
  private readonly sync: FolderSync;
  private readonly indexer: Indexer;
  private readonly searcher: Searcher;
  private readonly searching: GatedSearch;
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
    const debounceMs = () => settings.get<number>('watch.debounce_ms');
    this.registry = new FolderRegistry(settings, paths.root);
    this.models = new ModelService({ store, settings, dataDir: paths.root, bundledModelsDir });
    this.filters = new FilterCache(() => this.registry.rules());
    this.skipLog = new SkipLog(skipLogDir(paths.index));
    this.indexer = new Indexer(
      store,
      () => this.models.embeddings,
      () => this.registry.rules(),
      this.filters,
      this.skipLog,
    );
    this.changes = new FolderChanges({
      indexDir: paths.index,
      debounceMs,
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
      wanted: () => this.models.wantedContract(),
      folders: () => this.registry.specs().map((f) => f.path),
      keepVectors: () => this.models.embeddings.tableName,
    });
    this.damage = new DamageWatch(store, paths.index, (found) => {
      for (const f of this.registry.specs()) this.states.setFailure(f.path, found.message);
      if (this.serving && !this.closed) this.repair.start(found);
    });
    this.maintenance = new MaintenanceScheduler(
      queue,
      () =>
        this.damage.background(async () =>
          store.maintain(await this.models.embeddings.vectorsName(false), maintenanceOptions),
        ),
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
      damage: this.damage,
      contract: this.contract,
      states: this.states,
      folders: () => this.registry.specs().map((f) => f.path),
      index: (folder) => this.sync.index(folder, 'create'),
    });
    this.folderAdmin = new FolderAdmin({
      registry: this.registry,
      store,
      sync: this.sync,
      states: this.states,
      changes: this.changes,
      skipLog: this.skipLog,
      live: () => this.live,
    });
    const searchGate = this.searchGate;
    const fresh = { live: () => this.live, queue, changes: this.changes, debounceMs };
    this.searcher = new Searcher({
      reads: store.reads,
      graph: store.graph,
      freshness: (f) => this.states.freshness(f),
      contract: () => this.contract.check,
      vectors: () => this.models.searchVectors((work) => searchGate.outside(work)),
      settings: () => searchSettings(settings.snapshot()),
      waitForFresh: (folders, ms) => searchGate.outside(() => waitForFresh(fresh, folders, ms)),
    });
    this.searching = new GatedSearch({
      searcher: this.searcher,
      gate: searchGate,
      damage: this.damage,
      snapshot: () => settings.snapshot(),
      assertOpen: () => this.assertOpen(),
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
      const { opened, repairedFrom } = await openIndex(
        paths.index,
        opts.repair === true,
        async (store) => {
          const engine = new Engine(
            paths,
            settings,
            store,
            lock,
            // Without the lock another engine may be writing: its uncommitted files are not ours to sweep.
            { ...DEFAULT_MAINTENANCE, sweepAbandoned: lock !== null, ...opts.maintenance },
            opts.bundledModelsDir ?? (process.env.CAIRN_MODELS_DIR || undefined),
            opts.folderRetryMs ?? 5000,
            opts.serving === true,
          );
          if (opts.serving && settings.get<boolean>('watch.enabled'))
            engine.states.requireReconcile(engine.folderSpecs().map((f) => f.path));
          await engine.load();
          return engine;
        },
        { searchMirror: opts.searchMirror },
      );
      opened.repairedFrom = repairedFrom;
      return opened;
    } catch (err) {
      await lock?.release();
      throw err;
    }
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

  // --- EngineApi -----------------------------------------------------------------------------

  search(req: SearchRequest, defaults?: SearchDefaults): Promise<SearchResponse> {
    return this.searching.search(req, defaults);
  }

  async read(req: ReadRequest): Promise<ReadResult> {
    return readLines(req, this.folderSpecs(), this.registry.rules());
  }

  async grep(req: GrepRequest): Promise<GrepResult> {
    const r = argumentsOf(parseGrepRequest(req));
    const folders = r.folders ? r.folders.map((f) => this.registry.spec(f)) : this.folderSpecs();
    const timeoutMs = this.settings.get<number>('search.grep_timeout_ms');
    return grepFolders(r, folders, this.registry.rules(), undefined, timeoutMs);
  }

  async folders(): Promise<FolderStatus[]> {
    return this.folderAdmin.statuses();
  }

  async status(): Promise<EngineStatus> {
    return engineStatus({
      dataDir: this.dataDir,
      folders: this.folderAdmin,
      queue: this.jobsQueue,
      models: this.models,
      contract: this.contract,
      damage: this.damage,
      repair: this.repair,
    });
  }

  addFolder(input: FolderSpec): Promise<FolderStatus> {
    return this.folderAdmin.add(input);
  }

  removeFolder(path: string): Promise<void> {
    return this.folderAdmin.remove(path);
  }

  dropIndex(path: string): Promise<void> {
    return this.folderAdmin.dropIndex(path);
  }

  async updateFolder(req: UpdateFolderRequest): Promise<FolderStatus> {
    return this.folderAdmin.update(req);
  }

  folderFiles(req: FolderFilesRequest): Promise<FolderFilesResponse> {
    return this.folderAdmin.files(req);
  }

  async indexFolder(path: string, kind: 'create' | 'update' | 'rebuild'): Promise<JobInfo> {
    return this.folderAdmin.index(path, kind);
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
    await shutDown({
      sync: this.sync,
      models: this.models,
      maintenance: this.maintenance,
      changes: this.changes,
      live: this.live,
      queue: this.jobsQueue,
      skipLog: this.skipLog,
      store: this.store,
      lock: this.lock,
    });
  }
}

export async function openEngine(opts: EngineOptions): Promise<Engine> {
  return Engine.open(opts);
}
