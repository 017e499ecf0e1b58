import { adminClient, bearerCall } from '../../common/admin-client.js';
import type { FolderSpec } from '../../common/settings.js';
import type { FolderFilesRequest, FolderFilesResponse } from '../../common/files.js';
import type { SearchResponse } from '../../common/search.js';
import type { SearchRequest } from '../../common/requests.js';
import type { EngineStatus, FolderStatus, JobInfo } from '../../common/status.js';
import { CairnError } from '../errors.js';
import type { Engine } from '../engine.js';

/** What the CLI needs, whether the engine runs in this process or in a `cairn serve` nearby. */
export interface EngineClient {
  /** Calls go to a running engine (`cairn serve`, the app) rather than one opened here. */
  readonly remote: boolean;
  folderFiles(req: FolderFilesRequest): Promise<FolderFilesResponse>;
  addFolder(spec: FolderSpec): Promise<FolderStatus>;
  removeFolder(path: string): Promise<void>;
  indexFolder(path: string, kind: 'create' | 'update' | 'rebuild'): Promise<JobInfo>;
  job(id: string): Promise<JobInfo | undefined>;
  search(req: SearchRequest): Promise<SearchResponse>;
  status(): Promise<EngineStatus>;
  folderPaths(): Promise<string[]>;
  close(): Promise<void>;
}

export function localClient(engine: Engine): EngineClient {
  return {
    remote: false,
    folderFiles: (req) => engine.folderFiles(req),
    addFolder: (spec) => engine.addFolder(spec),
    removeFolder: (path) => engine.removeFolder(path),
    indexFolder: (path, kind) => engine.indexFolder(path, kind),
    job: async (id) => engine.job(id),
    search: (req) => engine.search(req),
    status: () => engine.status(),
    folderPaths: async () => engine.folderSpecs().map((f) => f.path),
    close: () => engine.close(),
  };
}

/** Talks to a running `cairn serve` over its admin API, so the index is never opened twice. */
export function remoteClient(base: string, token: string): EngineClient {
  const api = adminClient(
    bearerCall(base, token, {
      fail: (_status, e) => new CairnError(e.code, e.message, { remedy: e.remedy, details: e.details }),
      unreachable: (err) =>
        new CairnError(
          'dependency_unavailable',
          `The running engine at ${base} does not answer: ${(err as Error).message}`,
        ),
    }),
  );
  return {
    remote: true,
    folderFiles: (req) => api.folderFiles(req),
    addFolder: (spec) => api.addFolder(spec),
    removeFolder: async (path) => void (await api.removeFolder({ path })),
    indexFolder: (path, kind) => api.indexFolder({ path, kind }),
    job: async (id) => (await api.jobs()).find((j) => j.id === id),
    search: (req) => api.search(req),
    status: () => api.engineStatus(),
    folderPaths: async () => (await api.engineStatus()).folders.map((f) => f.path),
    close: async () => undefined,
  };
}
