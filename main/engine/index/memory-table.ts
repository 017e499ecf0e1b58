import { Bm25Index, type Bm25Params } from './bm25.js';
import { filterTest, type FilteredRow, type RowFilter } from './row-filter.js';

/** A file's origin columns, shared by its chunks' entries. */
export interface FileOrigin extends FilteredRow {
  rel: string;
}

/** What a hit shows beyond its place (index/search-reads.ts, HitRow). */
export interface ShownColumns {
  text: string;
  language: string;
  symbol: string;
  heading: string;
}

export interface ChunkEntry {
  id: string;
  file: FileOrigin;
  start_line: number;
  end_line: number;
  page: number;
  /** Held while the mirror's shown text fits SHOWN_TEXT_BUDGET; else a hit reads it from LanceDB. */
  shown?: ShownColumns;
}

/** One table's mirror: the BM25 index and, by slot, what a match returns. */
export class MemoryTable<E extends { file: FileOrigin; shown?: ShownColumns }> {
  readonly index: Bm25Index;
  private readonly entries: (E | undefined)[] = [];
  private readonly byPath = new Map<string, number[]>();
  /** Each slot's file, as an index into `files`: a filter is tested once per file, not per chunk. */
  private slotFile = new Uint32Array(1024);
  private readonly files: FileOrigin[] = [];
  private readonly fileIndex = new Map<string, number>();
  /** The last filter's files that pass, kept until the table changes (a search asks it 2-4 times). */
  private passing: { key: string; version: number; pass: Uint8Array } | null = null;
  private version = 0;
  /** Characters of shown text the live entries hold (see SHOWN_TEXT_BUDGET). */
  heldText = 0;

  constructor(params?: Bm25Params) {
    this.index = new Bm25Index(params);
  }

  add(entry: E, text: string): void {
    const slot = this.index.add(text);
    this.entries[slot] = entry;
    this.heldText += heldBy(entry);
    this.version++;
    let file = this.fileIndex.get(entry.file.path);
    if (file === undefined || this.files[file] !== entry.file) {
      file = this.files.length;
      this.files.push(entry.file);
      this.fileIndex.set(entry.file.path, file);
    }
    if (slot >= this.slotFile.length) {
      const grown = new Uint32Array(Math.max(slot + 1, this.slotFile.length * 2));
      grown.set(this.slotFile);
      this.slotFile = grown;
    }
    this.slotFile[slot] = file;
    const list = this.byPath.get(entry.file.path);
    if (list) list.push(slot);
    else this.byPath.set(entry.file.path, [slot]);
  }

  removePath(path: string): void {
    this.version++;
    for (const slot of this.byPath.get(path) ?? []) {
      this.index.remove(slot);
      this.heldText -= heldBy(this.entries[slot]);
      this.entries[slot] = undefined;
    }
    this.byPath.delete(path);
  }

  /**
   * The best `limit` matches of `match` passing `filter`, made into rows by `make` and put in
   * `order`. The cut falls at the limit-th best score and equal scores there are ordered as the
   * whole list would be (LanceDB keeps some of a tie at its cut, by row); rows are made for the
   * candidates at or above the cut only (a common word matches most chunks).
   */
  best<U>(
    match: string,
    filter: RowFilter | undefined,
    limit: number,
    make: (entry: E, score: number) => U,
    order: (rows: U[]) => U[],
  ): U[] {
    const { slots, count, sums } = this.index.search(match, filter ? this.maskOf(filter) : undefined);
    let cut = -Infinity;
    if (count > limit && limit > 0) {
      const scores = new Float32Array(count);
      for (let i = 0; i < count; i++) scores[i] = sums[slots[i]];
      cut = nthSmallest(scores, count - limit);
    }
    const out: U[] = [];
    for (let i = 0; i < count; i++) {
      const slot = slots[i];
      if (sums[slot] >= cut) out.push(make(this.entries[slot] as E, sums[slot]));
    }
    return order(out).slice(0, Math.max(0, limit));
  }

  /** The live entries of one file, in the order they were added. */
  entriesOf(path: string): E[] {
    return (this.byPath.get(path) ?? []).map((slot) => this.entries[slot] as E);
  }

  /** Which files pass the filter, by file index (see `slotFile`). */
  private maskOf(filter: RowFilter): { slotFile: Uint32Array; pass: Uint8Array } {
    const key = JSON.stringify(filter);
    if (this.passing?.key !== key || this.passing.version !== this.version) {
      const test = filterTest(filter);
      const pass = new Uint8Array(this.files.length);
      if (filter.paths) {
        for (const p of filter.paths) {
          const i = this.fileIndex.get(p);
          if (i !== undefined && test(this.files[i])) pass[i] = 1;
        }
      } else for (let i = 0; i < this.files.length; i++) pass[i] = test(this.files[i]) ? 1 : 0;
      this.passing = { key, version: this.version, pass };
    }
    return { slotFile: this.slotFile, pass: this.passing.pass };
  }

  get paths(): number {
    return this.byPath.size;
  }
}

/**
 * The value a full sort would put at index `n` (the cut of `best`), by selection: a common word
 * matches most chunks, and sorting all their scores was a large share of a search's time.
 * Reorders `a`.
 */
export function nthSmallest(a: Float32Array, n: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    // Median of three as the pivot (scores are often sorted runs: postings come in slot order).
    const mid = (lo + hi) >>> 1;
    const x = a[lo];
    const y = a[mid];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else return a[n];
  }
  return a[n];
}

function heldBy(e: { shown?: ShownColumns } | undefined): number {
  return e?.shown?.text.length ?? 0;
}
