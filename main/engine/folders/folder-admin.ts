import type { UpdateFolderRequest } from '../../common/admin.js';
import type { FolderFilesRequest, FolderFilesResponse } from '../../common/files.js';
import type { FolderSpec } from '../../common/settings.js';
import type { FolderStatus, JobInfo } from '../../common/status.js';
import { CairnError } from '../errors.js';
import type { IndexStore } from '../index/store.js';
import type { SkipLog } from '../ingest/skip-log.js';
import type { FolderChanges } from '../watch/changes.js';
import type { LiveUpdates } from '../watch/live.js';
import { listFolderFiles, parseFileListQuery } from './file-list.js';
import type { FolderRegistry } from './registry.js';
import type { FolderStates } from './states.js';
import type { FolderSync } from './sync.js';

export interface FolderAdminDeps {
  registry: FolderRegistry;
  store: IndexStore;
  sync: FolderSync;
  states: FolderStates;
  changes: FolderChanges;
  skipLog: SkipLog;
  /** The live updates, once serving started them (engine.ts builds them). */
  live: () => LiveUpdates | null;
}

/**
 * What the admin API does to a folder, each as one sequence over the parts that hold a folder's
 * state (the setting, its index, its jobs, its watch, its skip log), in the order that leaves no
 * part pointing at a folder another has forgotten.
 */
export class FolderAdmin {
  constructor(private readonly d: FolderAdminDeps) {}

  statuses(): FolderStatus[] {
    return this.d.registry.specs().map((f) => this.d.states.status(f));
  }

  async add(input: FolderSpec): Promise<FolderStatus> {
    const spec = await this.d.registry.checkNew(input);
    this.d.registry.add(spec);
    await this.d.store.recount(spec.path);
    await this.d.live()?.add(spec);
    return this.d.states.status(spec);
  }

  async remove(path: string): Promise<void> {
    const spec = this.d.registry.spec(path);
    this.d.sync.cancel(spec.path);
    await this.d.live()?.remove(spec.path);
    this.d.registry.remove(spec.path);
    await this.d.sync.drop(spec.path);
    await this.d.skipLog.forget(spec.path);
    this.d.changes.forget(spec.path);
  }

  async dropIndex(path: string): Promise<void> {
    const folder = this.d.registry.spec(path).path;
    await this.d.sync.drop(folder);
    await this.d.skipLog.forget(folder);
  }

  /** Options that change in place; turning text_only off computes the folder's vectors. */
  update(req: UpdateFolderRequest): FolderStatus {
    const spec = this.d.registry.spec(req.path);
    if (req.text_only !== undefined && typeof req.text_only !== 'boolean')
      throw new CairnError('invalid_argument', 'text_only must be true or false', { details: { key: 'text_only' } });
    const next: FolderSpec = { ...spec };
    if (req.text_only === true) next.text_only = true;
    else if (req.text_only === false) delete next.text_only;
    this.d.registry.replace(next);
    if (spec.text_only === true && next.text_only !== true) this.d.sync.index(spec.path, 'update');
    return this.d.states.status(next);
  }

  async files(req: FolderFilesRequest): Promise<FolderFilesResponse> {
    const query = parseFileListQuery(req);
    const spec = this.d.registry.spec(query.path);
    const rows = await this.d.store.listedFiles(spec.path);
    const summary = this.d.skipLog.summary(spec.path);
    const { entries, complete } = this.d.skipLog.list(spec.path);
    return listFolderFiles(
      spec.path,
      query,
      rows,
      { entries, complete, byReason: summary?.by_reason ?? {}, total: summary?.total ?? 0 },
      spec.text_only === true,
    );
  }

  index(path: string, kind: 'create' | 'update' | 'rebuild'): JobInfo {
    return this.d.sync.index(this.d.registry.spec(path).path, kind).info();
  }
}
