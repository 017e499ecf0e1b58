/**
 * An engine whose index is still opening. `cairn serve` listens with this in front of the real
 * engine: listing tools and checking requests need only the settings, while loading LanceDB,
 * the graph and every folder's counts takes seconds on a large index. Each call that needs the
 * index waits for it (a search right after start is answered, not refused), and one that does
 * not (the job list) answers from what exists: before the index opens there is no job.
 */
import type { UpdateFolderRequest } from '../common/admin.js';
import type { FolderFilesRequest, FolderFilesResponse } from '../common/files.js';
import type { GrepResult, ReadResult, SearchResponse } from '../common/search.js';
import type { GrepRequest, ReadRequest, SearchDefaults, SearchRequest } from '../common/requests.js';
import type { FolderSpec } from '../common/settings.js';
import type { EngineStatus, FolderStatus, JobInfo, ModelSwitchStatus } from '../common/status.js';
import type { EngineApi } from './api.js';
import type { DataFolder } from './data-folder.js';
import type { Engine, EngineOptions } from './engine.js';
import { CairnError } from './errors.js';

export class StartingEngine implements EngineApi {
  readonly dataDir: string;
  private opening: Promise<Engine> | null = null;
  private engine: Engine | null = null;
  private closed = false;

  constructor(
    private readonly folder: DataFolder,
    private readonly opts: EngineOptions,
  ) {
    this.dataDir = folder.paths.root;
  }

  get settings(): DataFolder['settings'] {
    return this.folder.settings;
  }

  /**
   * Imports and opens the engine once; every caller shares the result. A failure (a corrupt
   * index) rejects every waiting call with its typed error, and the lock is released.
   */
  open(): Promise<Engine> {
    if (!this.opening) {
      this.opening = import('./engine.js').then(
        ({ Engine }) => Engine.openIn(this.folder, this.opts),
        async (err: unknown) => {
          await this.folder.lock?.release();
          throw err;
        },
      );
      this.opening.then(
        (e) => (this.engine = e),
        () => undefined,
      );
    }
    return this.opening;
  }

  /** Opens the engine, then keeps its folders fresh, unless a close came while it opened. */
  async openAndWatch(): Promise<void> {
    const engine = await this.open();
    if (!this.closed) await engine.startLiveUpdates();
  }

  private async ready(): Promise<Engine> {
    if (this.closed) throw new CairnError('dependency_unavailable', 'the engine is shutting down');
    return this.engine ?? this.open();
  }

  async search(req: SearchRequest, defaults?: SearchDefaults): Promise<SearchResponse> {
    return (await this.ready()).search(req, defaults);
  }

  async read(req: ReadRequest): Promise<ReadResult> {
    return (await this.ready()).read(req);
  }

  async grep(req: GrepRequest): Promise<GrepResult> {
    return (await this.ready()).grep(req);
  }

  async status(): Promise<EngineStatus> {
    return (await this.ready()).status();
  }

  async folders(): Promise<FolderStatus[]> {
    return (await this.ready()).folders();
  }

  async addFolder(spec: FolderSpec): Promise<FolderStatus> {
    return (await this.ready()).addFolder(spec);
  }

  async removeFolder(path: string): Promise<void> {
    return (await this.ready()).removeFolder(path);
  }

  async updateFolder(req: UpdateFolderRequest): Promise<FolderStatus> {
    return (await this.ready()).updateFolder(req);
  }

  async folderFiles(req: FolderFilesRequest): Promise<FolderFilesResponse> {
    return (await this.ready()).folderFiles(req);
  }

  async indexFolder(path: string, kind: 'create' | 'update' | 'rebuild'): Promise<JobInfo> {
    return (await this.ready()).indexFolder(path, kind);
  }

  async dropIndex(path: string): Promise<void> {
    return (await this.ready()).dropIndex(path);
  }

  jobs(): JobInfo[] {
    return this.engine?.jobs() ?? [];
  }

  job(id: string): JobInfo | undefined {
    return this.engine?.job(id);
  }

  jobAction(id: string, action: 'pause' | 'resume' | 'cancel'): JobInfo {
    if (!this.engine) throw new CairnError('not_found', `no job ${id}`);
    return this.engine.jobAction(id, action);
  }

  prepareModel(): void {
    this.ready().then(
      (e) => e.prepareModel(),
      () => undefined,
    );
  }

  switchModel(modelId: string): ModelSwitchStatus {
    if (!this.engine)
      throw new CairnError(
        'dependency_unavailable',
        'The engine is still opening the index; try the switch again in a moment.',
      );
    return this.engine.switchModel(modelId);
  }

  /**
   * Applied as soon as the engine is open, before any status a caller asks for after this call
   * (those wait on the same promise, queued later), so `paused` never reads stale.
   */
  setPaused(paused: boolean): void {
    if (this.engine) this.engine.setPaused(paused);
    else
      this.ready().then(
        (e) => e.setPaused(paused),
        () => undefined,
      );
  }

  async idle(): Promise<void> {
    return (await this.ready()).idle();
  }

  /** Waits for an open in progress, so that the index is closed, never left half-open. */
  private closing: Promise<void> | null = null;

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    if (!this.opening) {
      await this.folder.lock?.release();
      return;
    }
    const engine = await this.opening.catch(() => null);
    await engine?.close();
  }
}
