import type { FolderSpec } from '../../common/settings.js';
import type { GraphIndex } from '../graph/graph.js';
import type { FileRow } from '../index/schema.js';
import { retryOnConflict } from '../index/retry.js';
import { sqlIn } from '../index/sql.js';
import type { IndexStore } from '../index/store.js';
import type { Job } from '../jobs/job.js';
import { decodeText, parseFile } from '../parse/index.js';
import { inspectPath, readSourceFile, walkFolder } from '../sources/index.js';
import type { SourceFile } from '../types.js';
import type { Embeddings } from './embeddings.js';
import { embedPending } from './embed-phase.js';
import { fileRow, rowsFor, sha1, type FileRows } from './rows.js';

export interface IndexerOptions {
  maxFileBytes: number;
  respectGitignore: boolean;
  extraExcludes: string[];
}

/** A commit every few thousand chunks keeps commits large (fast) and progress visible. */
const BATCH_CHUNKS = 3000;
const BATCH_FILES = 400;
const REMOVE_BATCH = 500;
/** Status counts are re-read from the index at most this often while a job writes. */
const COMMIT_REPORT_MS = 1000;
/** Walk error codes that mean the path is simply not there (any more). */
const GONE_CODES = new Set(['ENOENT', 'ENOTDIR', 'not_found']);

/**
 * Brings one folder's index in line with the disk: walk, compare with the stored content hashes,
 * re-parse only what changed, swap chunks per file atomically, prune what is gone, then compute
 * missing vectors. Text lands first, so sparse and graph search work while vectors are computed.
 */
export class Indexer {
  constructor(
    private readonly store: IndexStore,
    private readonly graph: GraphIndex,
    private readonly embeddings: () => Embeddings,
    private readonly options: () => IndexerOptions,
    /** Called after commits (throttled), so status counts follow a running job, not only its end. */
    private readonly onCommit: (folder: string) => Promise<void> = async () => undefined,
  ) {}

  private lastCommitReport = 0;

  private async committed(folder: string): Promise<void> {
    const now = Date.now();
    if (now - this.lastCommitReport < COMMIT_REPORT_MS) return;
    this.lastCommitReport = now;
    await this.onCommit(folder);
  }

  async sync(spec: FolderSpec, job: Job, rebuild: boolean): Promise<void> {
    job.phase('scanning');
    const files: SourceFile[] = [];
    const errors: FileRow[] = [];
    for await (const item of walkFolder(spec, { ...this.options() })) {
      if ('file' in item) files.push(item.file);
      else if ('error' in item) {
        if (item.error.path === spec.path) throw new Error(`${spec.path}: ${item.error.message}`);
        errors.push(fileRow(spec.path, { path: item.error.path, rel: relOf(spec.path, item.error.path), size: 0, mtimeMs: 0 }, '', 0, item.error.code, item.error.message));
      }
      if ((files.length + errors.length) % 2000 === 0) await job.checkpoint();
    }
    const existing = await this.store.fileRows(spec.path);
    const seen = new Set([...files.map((f) => f.path), ...errors.map((e) => e.path)]);
    const changed = files.filter((f) => {
      const prev = existing.get(f.path);
      return rebuild || !prev || prev.error_code !== '' || prev.size !== f.size || prev.mtime !== f.mtimeMs;
    });
    job.setTotals(changed.length, 0);
    job.phase('parsing', { files_total: changed.length });
    await this.ingest(spec.path, changed, existing, rebuild, job);
    if (errors.length > 0) await this.store.writeFiles(errors.map((file) => ({ file, chunks: [], nodes: [], edges: [] })), await this.embeddings().table(false));
    job.errors += errors.length;
    const gone = [...existing.keys()].filter((p) => !seen.has(p));
    await this.remove(spec.path, gone);
    await this.embed(spec.path, job);
  }

  /** Applies a set of changed paths (from the watcher) without walking the whole folder. */
  async applyPaths(spec: FolderSpec, paths: string[], job: Job): Promise<void> {
    const existing = await this.store.fileRows(spec.path);
    const present: SourceFile[] = [];
    const gone: string[] = [];
    const errors: FileRow[] = [];
    for (const path of paths) {
      // Judged exactly as the walk would: rules, symlink containment, regular file, size, binary sniff.
      const item = await inspectPath(spec, relOf(spec.path, path), this.options());
      if (item && 'file' in item) present.push(item.file);
      // A file that is there but cannot be read is a per-file error, as the walk records it.
      else if (item && 'error' in item && !GONE_CODES.has(item.error.code)) errors.push(fileRow(spec.path, { path, rel: relOf(spec.path, path), size: 0, mtimeMs: 0 }, '', 0, item.error.code, item.error.message));
      else if (existing.has(path)) gone.push(path);
    }
    job.phase('parsing', { files_total: present.length });
    await this.ingest(spec.path, present, existing, false, job);
    if (errors.length > 0) await this.store.writeFiles(errors.map((file) => ({ file, chunks: [], nodes: [], edges: [] })), await this.embeddings().table(false));
    job.errors += errors.length;
    await this.remove(spec.path, gone);
    await this.embed(spec.path, job);
  }

  private async ingest(folder: string, files: SourceFile[], existing: Map<string, FileRow>, rebuild: boolean, job: Job): Promise<void> {
    const emb = this.embeddings();
    const counter = await chunkBudget(emb);
    const vectors = await emb.table(false);
    let batch: FileRows[] = [];
    let batchChunks = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      job.phase('writing');
      await this.recordIntent(batch.filter((w) => !existing.has(w.file.path)));
      await this.store.writeFiles(batch, vectors);
      for (const w of batch) this.graph.setFile(folder, w.file.path, w.file.rel, w.nodes, w.edges);
      job.advance(0, batchChunks);
      this.lastCommitReport = 0;
      await this.committed(folder);
      batch = [];
      batchChunks = 0;
      job.phase('parsing');
      await job.checkpoint();
    };
    for (const src of files) {
      // Between files, not only between batches: a pause or cancel takes effect at once, and an
      // unflushed batch is simply parsed again later (nothing of it was written).
      await job.checkpoint();
      const rows = await this.readAndParse(folder, src, existing.get(src.path), rebuild, counter);
      job.advance(1, 0);
      if (rows === 'unchanged') continue;
      if (rows.file.error_code) job.errors++;
      batch.push(rows);
      batchChunks += rows.chunks.length;
      if (batchChunks >= BATCH_CHUNKS || batch.length >= BATCH_FILES) await flush();
      // Parsing is CPU work on this thread: let queries in between files.
      else await new Promise((r) => setImmediate(r));
    }
    await flush();
  }

  /**
   * `writeFiles` commits a file's chunks before its `files` row. For a path the index does not
   * know yet, a crash between the two would leave chunks no `files` row points at, and if the file
   * is deleted or renamed before the next start, nothing would ever prune them. So the path is
   * recorded first, as a row that always counts as changed (mtime -1, no hash): a restart either
   * indexes the file again or prunes it with everything written under its path.
   */
  private async recordIntent(fresh: FileRows[]): Promise<void> {
    if (fresh.length === 0) return;
    const rows = fresh.map((w) => ({ ...w.file, hash: '', mtime: -1, chunks: 0, embedded: true, error_code: '', error_message: '' }));
    await retryOnConflict(() => this.store.files.mergeInsert('path').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows as unknown as Record<string, unknown>[]));
  }

  private async readAndParse(folder: string, src: SourceFile, prev: FileRow | undefined, rebuild: boolean, budget: ChunkBudget): Promise<FileRows | 'unchanged'> {
    let bytes: Buffer;
    try {
      bytes = await readSourceFile(src.path);
    } catch (err) {
      return { file: fileRow(folder, src, '', 0, (err as { code?: string }).code ?? 'unreadable', (err as Error).message), chunks: [], nodes: [], edges: [] };
    }
    const hash = sha1(bytes);
    if (!rebuild && prev && prev.hash === hash && prev.error_code === '' && prev.mtime === src.mtimeMs) return 'unchanged';
    // Same content with a new mtime (touch, checkout) is parsed again so that every row carries the
    // new date for the modified filters; its vectors are kept, their chunk ids do not change.
    try {
      const parsed = await parseFile(src, bytes, budget);
      const kind = parsed.chunks[0]?.kind;
      const plain = kind === 'text' || kind === 'markdown' || kind === 'code' || kind === 'data' ? decodeText(bytes) : undefined;
      return rowsFor(folder, src, hash, parsed, plain);
    } catch (err) {
      return { file: fileRow(folder, src, hash, 0, 'unparsable', (err as Error).message), chunks: [], nodes: [], edges: [] };
    }
  }

  async remove(folder: string, paths: string[]): Promise<void> {
    for (let i = 0; i < paths.length; i += REMOVE_BATCH) {
      const part = paths.slice(i, i + REMOVE_BATCH);
      await this.store.removeWhere(sqlIn('path', part));
      for (const p of part) this.graph.removeFile(folder, p);
    }
  }

  async embed(folder: string, job: Job): Promise<void> {
    await embedPending(this.store, this.embeddings(), folder, job, () => this.committed(folder));
  }
}

export interface ChunkBudget {
  maxTokens: number;
  countTokens: (text: string) => number;
}

/**
 * Chunks must fit the model's window, counted by the model's own tokenizer. When the model cannot
 * load, a deliberately pessimistic count keeps chunks inside the window anyway, so text indexing
 * never waits on the model.
 */
async function chunkBudget(emb: Embeddings): Promise<ChunkBudget> {
  // The title line added for embedding costs a few tokens of the window.
  const maxTokens = Math.max(16, emb.spec.maxTokens - 16);
  try {
    const e = await emb.get();
    return { maxTokens, countTokens: (t) => e.countTokens(t) };
  } catch {
    return { maxTokens, countTokens: (t) => Math.ceil((t.match(/\w+|[^\s\w]/g)?.length ?? 0) * 1.5) };
  }
}

function relOf(root: string, path: string): string {
  return path.slice(root.length).replace(/^[\\/]+/, '').split('\\').join('/');
}
