import { realpath, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { GrepRequest, GrepResult, ReadRequest, ReadResult, SearchRequest, SearchResponse } from '../common/search.js';
import { parseGrepRequest, type SearchDefaults } from '../common/requests.js';
import type { FolderSpec } from '../common/settings.js';
import type { EngineStatus, FolderStatus, IndexContract, JobInfo, ModelSwitchStatus } from '../common/status.js';
import type { EngineApi } from './api.js';
import type { DataPaths } from './config/paths.js';
import type { SettingsStore } from './config/settings-store.js';
import { takeDataFolder, type DataFolder } from './data-folder.js';
import { argumentsOf, CairnError } from './errors.js';
import { grepFolders } from './files/grep.js';
import { readLines } from './files/read.js';
import { ModelSwitch } from './model-switch.js';
import { FolderStates } from './folder-state.js';
import { checkContract, FTS_SETTINGS, readContract, writeContract, type ContractCheck } from './index/contract.js';
import { IndexStore } from './index/store.js';
import { DEFAULT_MAINTENANCE, type MaintenanceOptions } from './index/maintenance.js';
import { Embeddings } from './indexer/embeddings.js';
import { Indexer, type IndexerOptions } from './indexer/indexer.js';
import { JobQueue } from './jobs/queue.js';
import { LiveUpdates } from './jobs/live.js';
import type { Job } from './jobs/job.js';
import type { EngineLock } from './lock.js';
import { CHUNKER_VERSION } from './parse/index.js';
import { Searcher } from './search/searcher.js';
import { relativeInside } from './sources/filter.js';
import type { Embedder } from './types.js';
import { ENGINE_VERSION } from './version.js';

export interface EngineOptions {
  home: string;
  /** Move an unreadable index aside and start a new one (the rebuild action of `index_corrupt`). */
  repair?: boolean;
  /** Take the data folder's lock (default true). */
  lock?: boolean;
  maintenance?: Partial<MaintenanceOptions>;
  /** How often live updates look for a folder that vanished (default 5000 ms; tests shorten it). */
  folderRetryMs?: number;
  /** Models shipped with the desktop app; default `$CAIRN_MODELS_DIR` (set by the Electron shell). */
  bundledModelsDir?: string;
  /**
   * Opened to serve (`cairn serve`, `mcp --stdio`, the desktop app): live updates follow, so no
   * folder reads fresh until its start-up reconcile has finished, from the first status on.
   */
  serving?: boolean;
}

/**
 * The composition root: it builds every part once and wires them together. Everything outside
 * (MCP tools, admin API, CLI, desktop shell) talks to this class through `EngineApi`.
 */
export class Engine implements EngineApi {
  readonly dataDir: string;
  readonly jobsQueue = new JobQueue();
  readonly states: FolderStates;
  private embeddingsRef: Embeddings;
  private readonly indexer: Indexer;
  private readonly searcher: Searcher;
  private contractCheck: ContractCheck = { sparse: null, embedding: null };
  private storedContract: IndexContract | null = null;
  private rebuiltSinceMismatch = new Set<string>();
  private closed = false;
  /** The damage a rebuild moved the old index aside for (every folder then needs indexing). */
  repairedFrom: CairnError | null = null;
  /** Damage found after open (a storage error on a search or a write): named in status and errors. */
  private damage: CairnError | null = null;
  private live: LiveUpdates | null = null;
  private settingsWork: Promise<void> = Promise.resolve();
  private folderRetryMs = 5000;
  private readonly modelSwitch: ModelSwitch;

  private constructor(
    readonly paths: DataPaths,
    readonly settings: SettingsStore,
    readonly store: IndexStore,
    private readonly lock: EngineLock | null,
    private readonly maintenanceOptions: MaintenanceOptions,
    private readonly bundledModelsDir: string | undefined,
  ) {
    this.dataDir = paths.root;
    this.states = new FolderStates(store, this.jobsQueue, paths.index, (folder) => this.indexer.secretsExcluded(folder));
    this.embeddingsRef = this.makeEmbeddings();
    this.modelSwitch = new ModelSwitch((id) => this.makeEmbeddings(id), (id) => this.settings.set({ 'embedding.model': id }), paths.root);
    this.indexer = new Indexer(store, () => this.embeddingsRef, () => this.indexerOptions());
    this.searcher = new Searcher({
      chunks: store.chunks,
      docs: store.docs,
      graph: store.graph,
      folders: () => this.folderSpecs().map((f) => f.path),
      freshness: (f) => this.states.freshness(f),
      contract: () => this.contractCheck,
      vectors: async () => {
        const embedder = await this.embeddingsRef.get();
        const table = await this.embeddingsRef.table(true);
        if (!table) throw new CairnError('dependency_unavailable', 'the model reports no dimensions');
        return { embedder, table, weight: this.embeddingsRef.fusionWeight };
      },
      settings: () => ({
        fusion: this.settings.get('search.fusion'),
        rrfK: this.settings.get('search.rrf_k'),
        vectorWeight: this.settings.get('search.vector_weight'),
        graphWeight: this.settings.get('search.graph_weight'),
      }),
      waitForFresh: (folders, ms) => this.waitForFresh(folders, ms),
    });
    settings.onChange((keys) => this.onSettingsChange(keys));
  }

  static async open(opts: EngineOptions): Promise<Engine> {
    return Engine.openIn(await takeDataFolder(opts.home, { lock: opts.lock }), opts);
  }

  /** Opens the index in a data folder already taken; releases its lock if that fails. */
  static async openIn(folder: DataFolder, opts: EngineOptions): Promise<Engine> {
    const { paths, settings, lock } = folder;
    try {
      const make = (store: IndexStore) => {
        const engine = new Engine(paths, settings, store, lock, { ...DEFAULT_MAINTENANCE, ...opts.maintenance }, opts.bundledModelsDir ?? (process.env.CAIRN_MODELS_DIR || undefined));
        engine.folderRetryMs = opts.folderRetryMs ?? 5000;
        if (opts.serving && settings.get<boolean>('watch.enabled')) engine.states.requireReconcile(engine.folderSpecs().map((f) => f.path));
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

  private makeEmbeddings(modelId: string = this.settings.get('embedding.model')): Embeddings {
    return new Embeddings(this.store, modelId, {
      dataDir: this.paths.root,
      bundledModelsDir: this.bundledModelsDir,
      threads: this.settings.get('embedding.threads'),
      batchSize: this.settings.get('embedding.batch_size'),
    });
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
    return {
      embedding_model: this.embeddingsRef.spec.id,
      embedding_dimensions: this.embeddingsRef.dimensions ?? 0,
      chunker_version: CHUNKER_VERSION,
      fts: { ...FTS_SETTINGS },
    };
  }

  /** Loads the graph into memory, checks the contract and counts every folder. */
  private async load(): Promise<void> {
    await this.store.loadGraph();
    await this.checkContract();
    for (const f of this.folderSpecs()) await this.store.recount(f.path);
  }

  private async checkContract(): Promise<void> {
    this.storedContract = await readContract(this.paths.index);
    const wanted = this.wantedContract();
    // An empty index takes whatever the configuration says: there is nothing to conflict with.
    if (!this.storedContract || (await this.store.isEmpty())) {
      if (JSON.stringify(this.storedContract) !== JSON.stringify(wanted)) await writeContract(this.paths.index, wanted);
      this.storedContract = wanted;
    }
    this.contractCheck = checkContract(this.storedContract, wanted);
  }

  /**
   * Synchronous up to the contract check, so a query right after the change already sees the new
   * model and any mismatch; closing the old workers and rewriting the contract follow, tracked so
   * that close() waits for them.
   */
  private onSettingsChange(keys: string[]): void {
    if (!keys.some((k) => k.startsWith('embedding.'))) return;
    const old = this.embeddingsRef;
    this.embeddingsRef = this.makeEmbeddings();
    this.rebuiltSinceMismatch.clear();
    this.contractCheck = checkContract(this.storedContract, this.wantedContract());
    this.settingsWork = this.settingsWork
      .then(async () => {
        await old.close();
        await this.checkContract();
      })
      .catch(() => undefined);
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
      folderSpecs: () => this.folderSpecs(),
      addPending: (folder, paths) => this.states.addPending(folder, paths),
      markRescan: (folder) => this.states.markRescan(folder),
      applyPending: (folder) => void this.submitChanges(folder),
      rescan: (folder) => this.indexFolder(folder, 'update').then((info) => this.jobsQueue.get(info.id)?.ended()).catch(() => undefined),
      setFailure: (folder, reason) => this.states.setFailure(folder, reason),
      debounceMs: () => this.settings.get<number>('watch.debounce_ms'),
      retryMs: () => this.folderRetryMs,
      filterOptions: () => this.indexerOptions(),
      barrierDir: () => join(this.dataDir, 'watch-barrier'),
    });
    await this.live.start();
  }

  folderSpecs(): FolderSpec[] {
    return this.settings.get<FolderSpec[]>('folders');
  }

  private spec(path: string): FolderSpec {
    const p = normalizeFolder(path);
    const spec = this.folderSpecs().find((f) => f.path === p);
    if (!spec) throw new CairnError('not_found', `${path} is not an indexed folder`, { details: { path } });
    return spec;
  }

  /**
   * The configured model, loaded on first use. Public for the benchmarks, which embed their queries
   * ahead of a latency run so that timings are the index's alone.
   */
  embedder(): Promise<Embedder> {
    return this.embeddingsRef.get();
  }

  // --- EngineApi -----------------------------------------------------------------------------

  async search(req: SearchRequest, defaults?: SearchDefaults): Promise<SearchResponse> {
    this.assertOpen();
    if (this.damage) throw this.damage;
    try {
      return await this.searcher.search(req, defaults ?? { mode: this.settings.get('mcp.default_mode'), topK: this.settings.get('mcp.default_top_k') });
    } catch (err) {
      throw await this.named(err);
    }
  }

  /**
   * A storage error is checked against the index itself: when a table fails its read check, the
   * error is that damage (typed `index_corrupt`, naming the table), remembered for status and
   * every later call, instead of LanceDB's raw I/O text passed on as a failed leg.
   */
  private async named(err: unknown): Promise<unknown> {
    if (this.damage) return this.damage;
    if (err instanceof CairnError && !['required_retrieval_leg_failed', 'internal'].includes(err.code)) return err;
    if (err instanceof Error && err.message === 'job cancelled') return err;
    try {
      await this.store.verify();
      await readContract(this.paths.index);
    } catch (found) {
      if (found instanceof CairnError && found.code === 'index_corrupt') {
        this.damage = found;
        for (const f of this.folderSpecs()) this.states.setFailure(f.path, found.message);
        return found;
      }
    }
    return err;
  }

  async read(req: ReadRequest): Promise<ReadResult> {
    return readLines(req, this.folderSpecs(), this.indexerOptions());
  }

  async grep(req: GrepRequest): Promise<GrepResult> {
    const r = argumentsOf(parseGrepRequest(req));
    const all = this.folderSpecs();
    const folders = r.folders ? r.folders.map((f) => this.spec(f)) : all;
    return grepFolders(r, folders, this.indexerOptions(), undefined, this.settings.get<number>('search.grep_timeout_ms'));
  }

  async folders(): Promise<FolderStatus[]> {
    return this.folderSpecs().map((f) => this.states.status(f));
  }

  async status(): Promise<EngineStatus> {
    const folders = await this.folders();
    const spec = this.embeddingsRef.spec;
    const mismatch = this.contractCheck.embedding ?? this.contractCheck.sparse;
    return {
      version: ENGINE_VERSION,
      data_dir: this.dataDir,
      folders,
      jobs: this.jobs(),
      model: {
        id: spec.id,
        dimensions: this.embeddingsRef.dimensions ?? 0,
        max_tokens: spec.maxTokens,
        size_mb: spec.sizeMb,
        builtin: spec.builtin,
        available: this.embeddingsRef.state !== 'error',
        description: spec.description,
        state: this.embeddingsRef.state,
        ...(this.embeddingsRef.error ? { error: this.embeddingsRef.error } : {}),
        ...(this.embeddingsRef.remedy ? { remedy: this.embeddingsRef.remedy } : {}),
        ...(this.embeddingsRef.download ? { download: this.embeddingsRef.download } : {}),
      },
      contract: this.storedContract,
      contract_mismatch: mismatch ? mismatch.toBody() : null,
      index_damage: this.damage ? this.damage.toBody() : null,
      paused: this.jobsQueue.paused,
      model_switch: this.modelSwitch.status(),
      totals: folders.reduce((t, f) => ({ files: t.files + f.files, chunks: t.chunks + f.chunks, embedded_chunks: t.embedded_chunks + f.embedded_chunks }), { files: 0, chunks: 0, embedded_chunks: 0 }),
    };
  }

  async addFolder(input: FolderSpec): Promise<FolderStatus> {
    if (!input || typeof input.path !== 'string') throw new CairnError('invalid_argument', 'path is required', { details: { key: 'path' } });
    const path = normalizeFolder(input.path);
    if (!/^(\/|[A-Za-z]:[\\/])/.test(input.path)) throw new CairnError('invalid_argument', `${input.path} is not an absolute path`, { details: { key: 'path' } });
    const st = await stat(path).catch(() => null);
    if (!st?.isDirectory()) throw new CairnError('invalid_argument', `${path} is not an existing folder`, { details: { key: 'path' } });
    await this.refuseDataFolder(path);
    const folders = this.folderSpecs();
    const overlap = folders.find((f) => f.path === path || path.startsWith(f.path + '/') || f.path.startsWith(path + '/'));
    if (overlap) throw new CairnError('conflict', overlap.path === path ? `${path} is already indexed` : `${path} overlaps the indexed folder ${overlap.path}`, { details: { path: overlap.path } });
    const spec: FolderSpec = { path, include: input.include ?? [], exclude: input.exclude ?? [], ...(input.include_secrets === true ? { include_secrets: true } : {}) };
    this.settings.set({ folders: [...folders, spec] });
    await this.store.recount(path);
    if (this.live) await this.live.add(spec);
    return this.states.status(spec);
  }

  /**
   * Cairn's data folder (index, API key, the lock holding the admin token) is never indexed: the
   * folder itself and anything inside it are refused; a folder that contains it is accepted and
   * the data folder is left out of it by the filter (sources/filter.ts).
   */
  private async refuseDataFolder(path: string): Promise<void> {
    const real = (p: string) => realpath(p).catch(() => p);
    const [folder, data] = await Promise.all([real(path), real(this.dataDir)]);
    for (const [f, d] of [[path, resolve(this.dataDir)], [folder, data]]) {
      if (relativeInside(d, f) !== null) {
        throw new CairnError('invalid_argument', `${path} is Cairn's data folder or inside it (${this.dataDir}); it holds the index and the keys and is never indexed`, {
          remedy: 'Add the folder your files are in; a folder that contains the data folder is fine (the data folder is left out of it).',
          details: { key: 'path', data_dir: this.dataDir },
        });
      }
    }
  }

  async removeFolder(path: string): Promise<void> {
    const spec = this.spec(path);
    const active = this.jobsQueue.active(spec.path);
    if (active) this.jobsQueue.action(active.id, 'cancel');
    await this.live?.remove(spec.path);
    this.settings.set({ folders: this.folderSpecs().filter((f) => f.path !== spec.path) });
    await this.dropRows(spec.path);
  }

  async dropIndex(path: string): Promise<void> {
    await this.dropRows(this.spec(path).path);
  }

  private async dropRows(folder: string): Promise<void> {
    await this.jobsQueue.idle().catch(() => undefined);
    await this.store.removeFolder(folder);
    this.states.forget(folder);
  }

  async indexFolder(path: string, kind: 'create' | 'update' | 'rebuild'): Promise<JobInfo> {
    const spec = this.spec(path);
    const job = this.jobsQueue.submit(kind, spec.path, (j) => this.runSync(spec.path, j, kind === 'rebuild'), kind === 'rebuild' ? 'rebuild' : 'rescan');
    return job.info();
  }

  /** Applies watcher changes for one folder (paths collected since the last run). */
  submitChanges(folder: string): Job {
    // A rescan handed back by a failed job is still due: it covers these paths too.
    if (this.states.hasRescan(folder)) return this.jobsQueue.submit('update', folder, (j) => this.runSync(folder, j, false), 'rescan');
    return this.jobsQueue.submit('update', folder, async (job) => {
      const spec = this.spec(folder);
      const paths = this.states.takePending(folder);
      if (paths.length === 0) return;
      try {
        await this.guard(folder, () => this.indexer.applyPaths(spec, paths, job));
      } catch (err) {
        this.handBack(folder, paths, false, job);
        throw err;
      }
      this.scheduleMaintenance();
    }, 'paths');
  }

  private async runSync(folder: string, job: Job, rebuild: boolean): Promise<void> {
    const spec = this.spec(folder);
    const mismatch = this.contractCheck.embedding ?? this.contractCheck.sparse;
    if (rebuild && this.contractCheck.embedding) await this.store.unmarkEmbedded(folder);
    // Changes seen before a full sync starts are covered by it; handed back if it does not complete.
    const taken = this.states.takePending(folder, true);
    try {
      await this.guard(folder, () => this.indexer.sync(spec, job, rebuild));
    } catch (err) {
      this.handBack(folder, taken, true, job);
      throw err;
    }
    this.states.markSynced(folder);
    if (rebuild && mismatch) await this.completeRebuild(folder);
    this.scheduleMaintenance();
  }

  private retryTimers = new Map<string, { timer: NodeJS.Timeout; delay: number }>();

  /**
   * What a job took and did not apply goes back to the folder's intents. While serving, the folder
   * is tried again with a growing delay (a full disk: once space is freed, every edit made
   * meanwhile lands without waiting for one more edit); a one-shot command reports the failure.
   */
  private handBack(folder: string, paths: string[], rescan: boolean, job: Job): void {
    this.states.giveBack(folder, paths, rescan);
    // A cancel is the person's (or the shutdown's) choice: the intents stay, no retry starts.
    if (!this.live || this.closed || job.isCancelled) return;
    const prev = this.retryTimers.get(folder);
    if (prev) clearTimeout(prev.timer);
    const delay = Math.min(60_000, prev ? prev.delay * 2 : 2000);
    const timer = setTimeout(() => {
      if (this.closed || !this.folderSpecs().some((f) => f.path === folder)) return;
      const job = this.submitChanges(folder);
      // A success ends the backoff; a failure hands back again and doubles it.
      void job.ended().then((state) => {
        if (state === 'done' && this.retryTimers.get(folder)?.timer === timer) this.retryTimers.delete(folder);
      });
    }, delay);
    timer.unref();
    this.retryTimers.set(folder, { timer, delay });
  }

  private maintenanceTimer: NodeJS.Timeout | null = null;

  /** Debounced: a burst of small updates leads to one compaction, after the queue drains. */
  private scheduleMaintenance(delayMs = 2000): void {
    if (this.closed) return;
    if (this.maintenanceTimer) clearTimeout(this.maintenanceTimer);
    this.maintenanceTimer = setTimeout(() => {
      this.maintenanceTimer = null;
      this.jobsQueue.exclusive('update', '*maintenance*', () => this.maintainNow());
    }, delayMs);
    this.maintenanceTimer.unref();
  }

  /**
   * Folds new rows into the indexes now (also what tests and benchmarks call before measuring).
   * Through the job queue: two maintenance passes, or one and a job's write, never overlap (a
   * compaction racing another ended a long run with "transaction file not found").
   */
  async runMaintenance(): Promise<void> {
    await this.jobsQueue.runExclusive('update', '*maintenance*', () => this.maintainNow());
  }

  private async maintainNow(): Promise<void> {
    await this.store.maintain(await this.embeddingsRef.vectorsName(false), this.maintenanceOptions);
  }

  /** Runs indexing work for a folder, keeping its counts and error state true whatever happens. */
  private async guard(folder: string, work: () => Promise<void>): Promise<void> {
    try {
      if (this.damage) throw this.damage;
      await work();
      this.states.setFailure(folder, null);
    } catch (raw) {
      const err = await this.named(raw);
      if (!(err instanceof Error && err.message === 'job cancelled')) this.states.setFailure(folder, err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  /** Once every folder is rebuilt under the new contract, the stored contract moves to it. */
  private async completeRebuild(folder: string): Promise<void> {
    this.rebuiltSinceMismatch.add(folder);
    if (!this.folderSpecs().every((f) => this.rebuiltSinceMismatch.has(f.path))) return;
    const stored = await readContract(this.paths.index);
    await writeContract(this.paths.index, this.wantedContract());
    if (stored && this.contractCheck.embedding) {
      const keep = this.embeddingsRef.tableName;
      for (const t of await this.store.vectorTableNames()) if (t !== keep) await this.store.dropVectors(t);
    }
    this.rebuiltSinceMismatch.clear();
    await this.checkContract();
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

  /** Starts loading (downloading, for a hub model not on disk) the configured model; status follows it. */
  prepareModel(): void {
    this.embeddingsRef.get().catch(() => undefined);
  }

  /** Downloads and checks `modelId`, then configures it; the current model serves until then. */
  switchModel(modelId: string): ModelSwitchStatus {
    this.assertOpen();
    return this.modelSwitch.start(modelId, this.settings.get<string>('embedding.model'));
  }

  setPaused(paused: boolean): void {
    this.jobsQueue.setPaused(paused);
  }

  idle(): Promise<void> {
    return this.jobsQueue.idle();
  }

  private async waitForFresh(folders: string[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // Only the watcher brings changes nobody applied yet. It tells when every change made before
    // this call has been seen (and counted pending); a guessed grace period is left only for when
    // it cannot tell (no space for its sentinel file, an unsupported backend).
    if (this.live && !(await this.live.caughtUp(timeoutMs))) {
      await new Promise((r) => setTimeout(r, Math.max(0, Math.min(this.settings.get<number>('watch.debounce_ms') + 50, deadline - Date.now()))));
    }
    // Changes are applied once their text is written: a job computing vectors no longer holds
    // the answer back (hits say how much the vector leg covers).
    const applying = (f: string) => this.jobsQueue.list().some((j) => j.folder === f && !j.finishedAt && j.info().progress.phase !== 'embedding');
    while (Date.now() < deadline) {
      const busy = folders.filter((f) => applying(f) || this.states.pendingCount(f) > 0);
      if (busy.length === 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new CairnError('dependency_unavailable', 'the engine is shutting down');
  }

  private closing: Promise<void> | null = null;

  /** Idempotent: every caller waits for the one shutdown (the lock is released at its end). */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    await this.modelSwitch.close();
    await this.settingsWork;
    if (this.maintenanceTimer) clearTimeout(this.maintenanceTimer);
    for (const r of this.retryTimers.values()) clearTimeout(r.timer);
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
    await this.states.saveMarker();
    // A model still loading (a hub download) must not hold the stop either.
    await Promise.race([this.embeddingsRef.close(), new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    await this.store.close();
    await this.lock?.release();
  }
}

/** How long close() waits for the running job to reach a checkpoint. */
const CLOSE_WAIT_MS = 3000;

export function normalizeFolder(path: string): string {
  const p = resolve(path);
  return p.length > 1 ? p.replace(/[\\/]+$/, '') : p;
}

export async function openEngine(opts: EngineOptions): Promise<Engine> {
  return Engine.open(opts);
}
