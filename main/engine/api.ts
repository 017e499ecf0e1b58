/**
 * What the outside (MCP tools, admin API, CLI, desktop shell) may ask of a running engine.
 * Implemented by `Engine` (engine.ts), the one composition root. Every method throws
 * `CairnError` (errors.ts) with a typed code on failure, never a partial result.
 */
import type { FolderSpec } from '../common/settings.js';
import type { GrepResult, ReadResult, SearchResponse } from '../common/search.js';
import type { GrepRequest, ReadRequest, SearchDefaults, SearchRequest } from '../common/requests.js';
import type { EngineStatus, FolderStatus, JobInfo, ModelSwitchStatus } from '../common/status.js';
import type { UpdateFolderRequest, ValidationIssue } from '../common/admin.js';
import type { FolderFilesRequest, FolderFilesResponse } from '../common/files.js';

/** Reading settings by key: the store itself (the current file) or one snapshot of it. */
export interface SettingsReader {
  get<T = unknown>(key: string): T;
}

/**
 * Every setting as it was at one moment, frozen (values are deeply read-only). A request takes
 * one and reads all its settings from it: one look at config.json per request, and values that
 * agree with each other even if the file changes meanwhile.
 */
export interface SettingsSnapshot extends SettingsReader {
  /** Every setting, keyed by dotted key; frozen. */
  readonly values: Readonly<Record<string, unknown>>;
}

export interface SettingsApi extends SettingsReader {
  /** Every setting with its current value, keyed by dotted key. */
  all(): Record<string, unknown>;
  /** A value of the current file, the caller's own copy. */
  get<T = unknown>(key: string): T;
  /** The current settings as one immutable snapshot (the same object while config.json is unchanged). */
  snapshot(): SettingsSnapshot;
  /** Validates the whole patch first; writes nothing if any value is invalid (throws config_invalid). */
  set(values: Record<string, unknown>): void;
  validate(values: Record<string, unknown>): ValidationIssue[];
  /** Called after every successful write with the keys that changed. */
  onChange(listener: (keys: string[]) => void): () => void;
}

export interface EngineApi {
  readonly dataDir: string;
  readonly settings: SettingsApi;
  /** `defaults`: what the caller captured (a mounted MCP server); else the engine's current settings. */
  search(req: SearchRequest, defaults?: SearchDefaults): Promise<SearchResponse>;
  read(req: ReadRequest): Promise<ReadResult>;
  grep(req: GrepRequest): Promise<GrepResult>;
  status(): Promise<EngineStatus>;
  folders(): Promise<FolderStatus[]>;
  addFolder(spec: FolderSpec): Promise<FolderStatus>;
  removeFolder(path: string): Promise<void>;
  /** Changes a folder's options in place (text_only). */
  updateFolder(req: UpdateFolderRequest): Promise<FolderStatus>;
  /** One folder's files, paged: indexed, waiting for vectors, errors, skipped with the reason. */
  folderFiles(req: FolderFilesRequest): Promise<FolderFilesResponse>;
  /** Starts (or queues) an indexing job; resolves with the job as created. */
  indexFolder(path: string, kind: 'create' | 'update' | 'rebuild'): Promise<JobInfo>;
  dropIndex(path: string): Promise<void>;
  jobs(): JobInfo[];
  job(id: string): JobInfo | undefined;
  jobAction(id: string, action: 'pause' | 'resume' | 'cancel'): JobInfo;
  /** Starts loading the configured embedding model in the background (a hub model downloads). */
  prepareModel(): void;
  /** Downloads and checks a model, then configures it (status: model_switch). */
  switchModel(modelId: string): ModelSwitchStatus;
  /** Pauses (or resumes) every job, including ones queued while paused; status reports `paused`. */
  setPaused(paused: boolean): void;
  /** Resolves when every job queued so far has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}
