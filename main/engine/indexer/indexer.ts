import type { FolderSpec } from '../../common/settings.js';
import type { GraphIndex } from '../graph/graph.js';
import type { FileRow } from '../index/schema.js';
import { asIndexWriteError, retryOnConflict } from '../index/retry.js';
import { sqlIn } from '../index/sql.js';
import type { IndexStore } from '../index/store.js';
import type { Job } from '../jobs/job.js';
import { decodeText, parseFile } from '../parse/index.js';
import { inspectPath, readSourceFile, walkFolder } from '../sources/index.js';
import type { SourceFile } from '../types.js';
import type { Embeddings } from './embeddings.js';
import { embedPending } from './embed-phase.js';
import { movedSince, StoredStats, storedPaths, storedRows } from './scan.js';
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
/** Walked files compared with the index and ingested at once: what a scan holds in memory. */
export const SCAN_BATCH = 2000;
/** Reads of a file that keeps changing while it is read, before leaving it to the next event. */
const REREAD_ROUNDS = 3;
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

  /**
   * Streams the walk: files whose size or mtime differ from the stored ones are gathered into
   * batches of SCAN_BATCH, ingested, and dropped before the walk goes on; unchanged files are not
   * kept at all. A folder of any size costs one batch plus a compact digest of its stored rows
   * (StoredStats), never the whole listing or every stored row.
   */
  async sync(spec: FolderSpec, job: Job, rebuild: boolean): Promise<void> {
    try {
      job.phase('scanning');
      const stored = await StoredStats.load(this.store, spec.path);
      let files: SourceFile[] = [];
      /** Paths of `files` the index has rows for: only their rows are looked up, for the hashes. */
      let known: string[] = [];
      let errors: FileRow[] = [];
      let walked = 0;
      const settle = async () => {
        // A pause holds here, before the batch shows as progress: a paused job stands still.
        await job.checkpoint();
        job.scanPeak = Math.max(job.scanPeak, files.length + errors.length);
        const existing = known.length > 0 ? await storedRows(this.store, known) : new Map<string, FileRow>();
        const changed = files;
        files = [];
        known = [];
        job.addFiles(changed.length);
        if (changed.length > 0) {
          job.phase('parsing');
          await this.ingestStable(spec.path, changed, existing, rebuild, job);
          job.phase('scanning');
        }
        await this.writeErrors(errors, job);
        errors = [];
      };
      for await (const item of walkFolder(spec, { ...this.options() })) {
        if ('file' in item) {
          const seen = stored.see(item.file.path, item.file);
          if (rebuild || !seen.unchanged) {
            files.push(item.file);
            if (seen.known) known.push(item.file.path);
          }
        } else if ('error' in item) {
          if (item.error.path === spec.path) throw new Error(`${spec.path}: ${item.error.message}`);
          stored.see(item.error.path);
          errors.push(fileRow(spec.path, { path: item.error.path, rel: relOf(spec.path, item.error.path), size: 0, mtimeMs: 0 }, '', 0, item.error.code, item.error.message));
        }
        if (files.length + errors.length >= SCAN_BATCH) await settle();
        else if ((++walked & 1023) === 0) await job.checkpoint();
      }
      await settle();
      await this.prune(spec.path, stored);
      await this.embed(spec.path, job);
    } catch (err) {
      throw asIndexWriteError(err, this.store.dir);
    }
  }

  /** Applies a set of changed paths (from the watcher) without walking the whole folder. */
  async applyPaths(spec: FolderSpec, paths: string[], job: Job): Promise<void> {
    try {
      job.phase('parsing', { files_total: 0 });
      for (let i = 0; i < paths.length; i += SCAN_BATCH) {
        const part = paths.slice(i, i + SCAN_BATCH);
        const existing = await storedRows(this.store, part);
        const present: SourceFile[] = [];
        const gone: string[] = [];
        const errors: FileRow[] = [];
        for (const path of part) {
          // Judged exactly as the walk would: rules, symlink containment, regular file, size, binary sniff.
          const item = await inspectPath(spec, relOf(spec.path, path), this.options());
          if (item && 'file' in item) present.push(item.file);
          // A file that is there but cannot be read (any more: a permission change) is a per-file
          // error, as the walk records it; its old chunks go with it, since serving text the person
          // has since locked away would show what the disk no longer lets anyone read.
          else if (item && 'error' in item && !GONE_CODES.has(item.error.code)) errors.push(fileRow(spec.path, { path, rel: relOf(spec.path, path), size: 0, mtimeMs: 0 }, '', 0, item.error.code, item.error.message));
          else if (existing.has(path)) gone.push(path);
        }
        job.addFiles(present.length);
        await this.ingestStable(spec.path, present, existing, false, job);
        await this.writeErrors(errors, job);
        await this.remove(spec.path, gone);
      }
      await this.embed(spec.path, job);
    } catch (err) {
      throw asIndexWriteError(err, this.store.dir);
    }
  }

  /**
   * Ingests, then looks at each file again: one whose size or mtime moved was written to while it
   * was read, so it is read again (a few times at most) until a read and its stat agree. Hash and
   * chunks always come from one read, and the stored mtime is the stat taken before that read, so a
   * file that keeps changing is simply seen as changed by the next sync or watcher event.
   */
  private async ingestStable(folder: string, files: SourceFile[], existing: Map<string, FileRow>, rebuild: boolean, job: Job): Promise<void> {
    await this.ingest(folder, files, existing, rebuild, job);
    let moved = await movedSince(files);
    for (let round = 0; moved.length > 0 && round < REREAD_ROUNDS; round++) {
      job.addFiles(moved.length);
      const again = moved;
      await this.ingest(folder, again, await storedRows(this.store, again.map((f) => f.path)), false, job);
      moved = await movedSince(again);
    }
  }

  private async writeErrors(errors: FileRow[], job: Job): Promise<void> {
    if (errors.length === 0) return;
    await this.store.writeFiles(errors.map((file) => ({ file, chunks: [], nodes: [], edges: [] })), await this.embeddings().table(false));
    job.errors += errors.length;
  }

  /** Removes what the walk did not see (deleted, newly ignored), reading stored paths as a stream. */
  private async prune(folder: string, stored: StoredStats): Promise<void> {
    let gone: string[] = [];
    for await (const paths of storedPaths(this.store, folder)) {
      for (const p of paths) if (stored.gone(p)) gone.push(p);
      // Deleting while reading is safe: the read holds the table version it started on.
      if (gone.length >= REMOVE_BATCH) {
        await this.remove(folder, gone);
        gone = [];
      }
    }
    await this.remove(folder, gone);
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
