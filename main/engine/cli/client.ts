import { answerErrorBody, parseAnswer } from '../../common/errors.js';
import type { FolderSpec } from '../../common/settings.js';
import type { SearchRequest, SearchResponse } from '../../common/search.js';
import type { EngineStatus, FolderStatus, JobInfo } from '../../common/status.js';
import { CairnError } from '../errors.js';
import type { Engine } from '../engine.js';

/** What the CLI needs, whether the engine runs in this process or in a `cairn serve` nearby. */
export interface EngineClient {
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
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new CairnError('dependency_unavailable', `The running engine at ${base} does not answer: ${(err as Error).message}`);
    }
    const text = await res.text();
    const data: unknown = parseAnswer(text) ?? null;
    if (!res.ok) {
      const e = answerErrorBody(res.status, data, `${method} ${path}`);
      throw new CairnError(e.code, e.message, { remedy: e.remedy, details: e.details });
    }
    return data as T;
  };
  return {
    addFolder: (spec) => call('POST', '/api/folders', spec),
    removeFolder: async (path) => void (await call('DELETE', '/api/folders', { path })),
    indexFolder: (path, kind) => call('POST', '/api/folders/index', { path, kind }),
    job: async (id) => (await call<{ jobs: JobInfo[] } | JobInfo[]>('GET', '/api/jobs').then((r) => (Array.isArray(r) ? r : r.jobs))).find((j) => j.id === id),
    search: (req) => call('POST', '/api/search', req),
    status: () => call('GET', '/api/status'),
    folderPaths: async () => (await call<EngineStatus>('GET', '/api/status')).folders.map((f) => f.path),
    close: async () => undefined,
  };
}
