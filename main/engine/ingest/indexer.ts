import type { FolderSpec } from '../../common/settings.js';
import type { FileRow } from '../index/schema.js';
import { asIndexWriteError } from '../index/retry.js';
import type { IndexStore } from '../index/store.js';
import type { Job } from '../jobs/job.js';
import { inspectPath, rootError, walkFolder, type FilterCache } from '../sources/index.js';
import { CairnError } from '../errors.js';
import type { WalkError } from '../types.js';
import { accessOptions, type AccessSpec } from '../sources/access.js';
import type { SourceFile } from '../types.js';
import type { Embeddings } from './embeddings.js';
import { embedPending } from './embed-phase.js';
import { movedSince, StoredStats } from './scan.js';
import { ParseAhead } from './parse-ahead.js';
import { parseSource, warmParseWorkers } from './parse-source.js';
import { ScanSkips, SkipLog } from './skip-log.js';
import { fileRow, type FileRows } from './rows.js';

export interface IndexerOptions {
  maxFileBytes: number;
  respectGitignore: boolean;
  extraExcludes: string[];
  dataDir?: string;
}

/**
 * A first commit after a few thousand chunks makes a new folder searchable early. Later batches
 * grow with what this ingest has written (a commit per doubling), up to a bound on the memory a
 * batch holds. Folding rows into the full-text indexes costs about the size of the table, so a
 * large sync folds once at its end, not once per scan batch (that grew with the square of the
 * folder: 10 folds were 5.5 of 34 s for 19k files). Rows not yet folded are found by a flat scan
 * meanwhile, and the sparse leg's in-memory mirror (index/sparse-memory.ts) scores them right;
 * where that mirror answers, the run's fold is left to the maintenance pass (IndexStore.fold).
 */
const BATCH_CHUNKS = 3000;
const MAX_BATCH_CHUNKS = 25_000;
const BATCH_FILES = 2000;
/** Fewer files than this (watcher updates) are folded into the full-text indexes batch by batch. */
const FOLD_EACH_BELOW = 200;
const REMOVE_BATCH = 500;
/** Walked files compared with the index and ingested at once: what a scan holds in memory. */
export const SCAN_BATCH = 2000;
/** Reads of a file that keeps changing while it is read, before leaving it to the next event. */
const REREAD_ROUNDS = 3;
/** The folder itself cannot be listed: the whole job stops, its index stays as it was. */
function unreadableRoot(err: WalkError): CairnError {
  return new CairnError(
    err.code === 'forbidden' || err.code === 'not_found' ? err.code : 'internal',
    `the folder cannot be listed: ${err.message}`,
    {
      remedy:
        'Make the folder readable again (e.g. chmod u+rx on it); its index is kept and brought up to date once it can be read.',
      details: { path: err.path },
    },
  );
}

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
    private readonly embeddings: () => Embeddings,
    private readonly options: () => IndexerOptions,
    /** The filters the watcher uses too: a watcher update reads no ignore file again. */
    private readonly filters: FilterCache,
    /** Where every skip is recorded with its reason (status, the per-folder file list). */
    readonly skips: SkipLog = new SkipLog(null),
  ) {}

  /** The spec of each folder being indexed: parse workers open its files through its rules (sources/access.ts). */
  private readonly specs = new Map<string, FolderSpec>();
  /** Folders with rows written but not yet folded into the full-text indexes (see foldWritten). */
  private readonly unfolded = new Set<string>();
  private epoch = 0;
  private readonly secrets = new Map<string, number>();

  /** Files and folders the secret excludes kept out of a folder at its last full scan (null before one). */
  secretsExcluded(folder: string): number | null {
    return this.secrets.get(folder) ?? null;
  }

  private accessSpec(folder: string): AccessSpec {
    const spec = this.specs.get(folder) ?? { path: folder };
    return { spec, opts: accessOptions(this.options()), epoch: this.epoch };
  }

  /**
   * Streams the walk: files whose size or mtime differ from the stored ones are gathered into
   * batches of SCAN_BATCH, ingested, and dropped before the walk goes on; unchanged files are not
   * kept at all. A folder of any size costs one batch plus a compact digest of its stored rows
   * (StoredStats), never the whole listing or every stored row.
   */
  async sync(spec: FolderSpec, job: Job, rebuild: boolean): Promise<void> {
    this.specs.set(spec.path, spec);
    try {
      job.phase('scanning');
      warmParseWorkers();
      const stored = await StoredStats.load(this.store, spec.path);
      let files: SourceFile[] = [];
      /** Paths of `files` the index has rows for: only their rows are looked up, for the hashes. */
      let known: string[] = [];
      let errors: FileRow[] = [];
      let walked = 0;
      let secrets = 0;
      const skipped = new ScanSkips();
      const settle = async () => {
        // A pause holds here, before the batch shows as progress: a paused job stands still.
        await job.checkpoint();
        job.scanPeak = Math.max(job.scanPeak, files.length + errors.length);
        const existing = known.length > 0 ? await this.store.fileRows(known) : new Map<string, FileRow>();
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
      try {
        for await (const item of walkFolder(spec, { ...this.options(), reportRuleSkips: true })) {
          if ('file' in item) {
            const seen = stored.see(item.file.path, item.file);
            if (rebuild || !seen.unchanged) {
              files.push(item.file);
              if (seen.known) known.push(item.file.path);
            }
          } else if ('skipped' in item) {
            if (item.skipped.reason === 'secret') secrets++;
            skipped.add(relOf(spec.path, item.skipped.path), item.skipped.reason, item.skipped.dir === true);
          } else if ('error' in item) {
            if (item.error.path === spec.path) throw unreadableRoot(item.error);
            stored.see(item.error.path);
            errors.push(
              fileRow(
                spec.path,
                { path: item.error.path, rel: relOf(spec.path, item.error.path), size: 0, mtimeMs: 0 },
                '',
                0,
                item.error.code,
                item.error.message,
              ),
            );
          }
          if (files.length + errors.length >= SCAN_BATCH) await settle();
          else if ((++walked & 1023) === 0) await job.checkpoint();
        }
        await settle();
      } finally {
        await this.foldWritten(spec.path);
      }
      this.secrets.set(spec.path, secrets);
      await this.skips.commitScan(spec.path, skipped);
      await this.prune(spec.path, stored);
      // A rebuild is asked for to get vectors under the configured model: without it, it has failed.
      await this.embed(spec.path, job, rebuild);
    } catch (err) {
      throw asIndexWriteError(err, this.store.dir);
    }
  }

  /** Applies a set of changed paths (from the watcher) without walking the whole folder. */
  async applyPaths(spec: FolderSpec, paths: string[], job: Job): Promise<void> {
    this.specs.set(spec.path, spec);
    // Under a root that cannot be listed (chmod 000 while serving) every path would look locked or
    // gone, and its rows would be dropped: the folder is in error instead, with nothing written.
    const root = await rootError(spec);
    if (root) throw unreadableRoot(root);
    try {
      job.phase('parsing', { files_total: 0 });
      try {
        await this.applyBatches(spec, paths, job);
      } finally {
        await this.foldWritten(spec.path);
      }
      await this.embed(spec.path, job);
    } catch (err) {
      throw asIndexWriteError(err, this.store.dir);
    }
  }

  private async applyBatches(spec: FolderSpec, paths: string[], job: Job): Promise<void> {
    for (let i = 0; i < paths.length; i += SCAN_BATCH) {
      const part = paths.slice(i, i + SCAN_BATCH);
      const existing = await this.store.fileRows(part);
      const present: SourceFile[] = [];
      const gone: string[] = [];
      const errors: FileRow[] = [];
      const filter = this.filters.get(spec);
      for (const path of part) {
        // Judged exactly as the walk would: rules, symlink containment, regular file, size, binary sniff.
        const rel = relOf(spec.path, path);
        const item = await inspectPath(spec, rel, this.options(), filter);
        if (item && 'skipped' in item) this.skips.note(spec.path, rel, item.skipped.reason);
        else if (item) this.skips.clear(spec.path, [rel]);
        if (item && 'file' in item) present.push(item.file);
        // A file that is there but cannot be read (any more: a permission change) is a per-file
        // error, as the walk records it; its old chunks go with it, since serving text the person
        // has since locked away would show what the disk no longer lets anyone read.
        else if (item && 'error' in item && !GONE_CODES.has(item.error.code))
          errors.push(
            fileRow(
              spec.path,
              { path, rel: relOf(spec.path, path), size: 0, mtimeMs: 0 },
              '',
              0,
              item.error.code,
              item.error.message,
            ),
          );
        else if (existing.has(path)) gone.push(path);
      }
      job.addFiles(present.length);
      await this.ingestStable(spec.path, present, existing, false, job);
      await this.writeErrors(errors, job);
      await this.remove(spec.path, gone);
    }
  }

  /** One fold for every batch a sync or watcher update wrote unfolded; also after a cancel or a failed write. */
  private async foldWritten(folder: string): Promise<void> {
    if (!this.unfolded.delete(folder)) return;
    await this.store.fold();
  }

  /**
   * Ingests, then looks at each file again: one whose size or mtime moved was written to while it
   * was read, so it is read again (a few times at most) until a read and its stat agree. Hash and
   * chunks always come from one read, and the stored mtime is the stat taken before that read, so a
   * file that keeps changing is simply seen as changed by the next sync or watcher event.
   */
  private async ingestStable(
    folder: string,
    files: SourceFile[],
    existing: Map<string, FileRow>,
    rebuild: boolean,
    job: Job,
  ): Promise<void> {
    await this.ingest(folder, files, existing, rebuild, job);
    let moved = await movedSince(files);
    for (let round = 0; moved.length > 0 && round < REREAD_ROUNDS; round++) {
      job.addFiles(moved.length);
      const again = moved;
      await this.ingest(folder, again, await this.store.fileRows(again.map((f) => f.path)), false, job);
      moved = await movedSince(again);
    }
  }

  private async writeErrors(errors: FileRow[], job: Job): Promise<void> {
    if (errors.length === 0) return;
    await this.store.writeFiles(
      errors.map((file) => ({ file, chunks: [], nodes: [], edges: [] })),
      await this.embeddings().vectorsName(false),
    );
    job.errors += errors.length;
  }

  /** Removes what the walk did not see (deleted, newly ignored), reading stored paths as a stream. */
  private async prune(folder: string, stored: StoredStats): Promise<void> {
    let gone: string[] = [];
    for await (const paths of this.store.filePaths(folder)) {
      for (const p of paths) if (stored.gone(p)) gone.push(p);
      // Deleting while reading is safe: the read holds the table version it started on.
      if (gone.length >= REMOVE_BATCH) {
        await this.remove(folder, gone);
        gone = [];
      }
    }
    await this.remove(folder, gone);
  }

  private async ingest(
    folder: string,
    files: SourceFile[],
    existing: Map<string, FileRow>,
    rebuild: boolean,
    job: Job,
  ): Promise<void> {
    const emb = this.embeddings();
    const source = await parseSource(emb);
    const vectors = await emb.vectorsName(false);
    let batch: FileRows[] = [];
    let batchChunks = 0;
    let written = 0;
    /** Same content, new change time or inode: only the stored stat moves, so it is not hashed again. */
    const restat: FileRow[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      written += batchChunks;
      job.phase('writing');
      for (const w of batch) w.fresh = !existing.has(w.file.path);
      await this.recordIntent(batch.filter((w) => w.fresh));
      // A run of batches is folded into the full-text indexes once, after the sync (foldWritten).
      const fold = files.length < FOLD_EACH_BELOW;
      if (!fold) this.unfolded.add(folder);
      await this.store.writeFiles(batch, vectors, { fold });
      job.advance(0, batchChunks);
      batch = [];
      batchChunks = 0;
      job.phase('parsing');
      await job.checkpoint();
    };
    // Workers parse ahead while this thread writes; what was parsed but not written when the job
    // stops is dropped (nothing of it was written, so it is simply parsed again later).
    let stopped = false;
    this.epoch++;
    const access = this.accessSpec(folder);
    const ahead = new ParseAhead(
      files,
      (src) => source.parse({ folder, src, prev: existing.get(src.path), rebuild, access }, () => stopped),
      source.ahead,
    );
    try {
      for (let i = 0; i < files.length; i++) {
        // Between files, not only between batches: a pause or cancel takes effect at once.
        await job.checkpoint();
        const rows = await ahead.take();
        job.advance(1, 0);
        if (rows === 'unchanged') {
          const prev = existing.get(files[i].path);
          if (prev && (prev.ctime !== (files[i].ctimeMs ?? 0) || prev.ino !== (files[i].ino ?? 0)))
            restat.push({ ...prev, ctime: files[i].ctimeMs ?? 0, ino: files[i].ino ?? 0 });
          continue;
        }
        if (rows.file.error_code) job.errors++;
        batch.push(rows);
        batchChunks += rows.chunks.length;
        if (batchChunks >= Math.min(MAX_BATCH_CHUNKS, Math.max(BATCH_CHUNKS, written)) || batch.length >= BATCH_FILES)
          await flush();
        // Parsing on this thread is CPU work: let queries in between files.
        else if (source.yieldPerFile) await new Promise((r) => setImmediate(r));
      }
      await flush();
      await this.store.restatFiles(restat);
    } finally {
      stopped = true;
    }
  }

  /**
   * `writeFiles` commits a file's chunks before its `files` row. For a path the index does not
   * know yet, a crash between the two would leave chunks no `files` row points at, and if the file
   * is deleted or renamed before the next start, nothing would ever prune them. So the path is
   * recorded first, as a row that always counts as changed (mtime -1, no hash): a restart either
   * indexes the file again or prunes it with everything written under its path.
   */
  private async recordIntent(fresh: FileRows[]): Promise<void> {
    await this.store.recordIntents(
      fresh.map((w) => ({
        ...w.file,
        hash: '',
        mtime: -1,
        chunks: 0,
        embedded: true,
        error_code: '',
        error_message: '',
      })),
    );
  }

  async remove(folder: string, paths: string[]): Promise<void> {
    for (let i = 0; i < paths.length; i += REMOVE_BATCH)
      await this.store.removeFiles(folder, paths.slice(i, i + REMOVE_BATCH));
  }

  async embed(folder: string, job: Job, requireModel = false): Promise<void> {
    // A text-only folder is searched by its words and links; its vectors are never computed.
    if (this.specs.get(folder)?.text_only === true) return;
    await embedPending(this.store, this.embeddings(), folder, job, requireModel);
  }
}

function relOf(root: string, path: string): string {
  return path
    .slice(root.length)
    .replace(/^[\\/]+/, '')
    .split('\\')
    .join('/');
}
