/**
 * BM25 in memory, scored as LanceDB 0.37 scores its full-text index, so that the sparse
 * leg can rank without a LanceDB query (issue 17: about 20 ms of each sparse search was the two
 * full-text queries). Checked against LanceDB on real tables (test/engine/sparse-memory.test.ts):
 * - tokens: the text split on ASCII whitespace (the `whitespace` tokenizer; the analyzer has done
 *   the rest, index/table-indexes.ts); tokens of 40 UTF-8 bytes or more are dropped (lance's
 *   default max_token_length), in the text and in the query;
 * - a query token counts as often as the query repeats it (LanceDB 0.37; 0.31 counted it once);
 * - K1 1.2, B 0.75, idf = ln((N - n + 0.5) / (n + 0.5) + 1), avgdl = tokens / docs, all in f32
 *   as lance computes them (Float32Array sums, Math.fround steps), so equal scores tie as there.
 * LanceDB's incremental index keeps deleted rows in its statistics until a compaction rewrites
 * their fragment; here N, avgdl and n are always those of the live rows: the scores LanceDB gives
 * the same rows indexed afresh.
 *
 * Postings are compact: one CSR block (token id -> doc slots and frequencies in Uint32Arrays)
 * built in bulk, plus a tail of flat number arrays for documents added since, merged into the
 * block when it grows. A removed document's slot is marked dead and skipped; `n` counts live
 * postings only, and dead slots leave at the next merge.
 *
 * `add` only appends (token, slot, freq) to one typed buffer; the next search or `compactIfDue`
 * places those postings in the tail, or merges everything into the block when that is due. A bulk
 * build (a whole table read) so makes no per-token arrays: at 100k chunks they were ~100 MB of
 * JS garbage, promoted while the read awaited LanceDB, and the old-space pages it left stayed
 * committed as slack for the life of the process (issue 17, memory under load).
 */

export const K1 = 1.2;
export const B = 0.75;
/** Tokens of this many UTF-8 bytes or more are not indexed (lance's max_token_length). */
export const MAX_TOKEN_BYTES = 40;

const f = Math.fround;
/** Pending postings at which `add` merges them into the block (see the module comment). */
const PENDING_MERGE = 1 << 20;
const encoder = new TextEncoder();

/** The tokens LanceDB's index sees in a column value or a query (see the module comment). */
export function bm25Tokens(text: string): string[] {
  const out: string[] = [];
  for (const t of text.split(/[ \t\n\f\r]+/)) {
    if (t === '') continue;
    // Only a token that may pass the limit in bytes pays for encoding.
    if (t.length * 3 >= MAX_TOKEN_BYTES && encoder.encode(t).length >= MAX_TOKEN_BYTES) continue;
    out.push(t);
  }
  return out;
}

export interface Bm25Params {
  k1: number;
  b: number;
}

function grow(a: Uint32Array, need: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(Math.max(need, a.length * 2, 1024));
  out.set(a);
  return out;
}

export class Bm25Index {
  private tokenIds = new Map<string, number>();
  // CSR block: postings of token t are docs/freqs[offsets[t] .. offsets[t + 1]).
  private offsets = new Uint32Array(1);
  private blockDocs = new Uint32Array(0);
  private blockFreqs = new Uint32Array(0);
  /** Postings added since the block was built: per token id, [slot, freq, slot, freq, ...]. */
  private tail = new Map<number, number[]>();
  private tailPostings = 0;
  /** Postings added since the last search or merge: token, slot, freq, token, slot, freq, ... */
  private pending = new Uint32Array(0);
  private pendingLength = 0;
  private lengths = new Uint32Array(1024);
  private alive = new Uint8Array(1024);
  private slots = 0;
  private live = 0;
  private deadSlots = 0;
  private totalTokens = 0;
  // Per-query scratch, reused: the sum per slot and the query that last touched it.
  private sums = new Float32Array(1024);
  private seen = new Uint32Array(1024);
  private touched = new Uint32Array(1024);
  private epoch = 0;
  private normOf = new Float32Array(0);
  private normKey = '';

  constructor(
    private readonly params: Bm25Params = { k1: K1, b: B },
    /** Pending postings at which `add` merges them into the block (tests set it low). */
    private readonly pendingMerge = PENDING_MERGE,
  ) {}

  get size(): number {
    return this.live;
  }

  /** Adds one document; returns its slot (slots are never reused until the block is rebuilt). */
  add(text: string): number {
    const slot = this.slots++;
    if (slot >= this.lengths.length) {
      // Doubling: a slot per document ever added, until a rebuild of the mirror.
      this.lengths = grow(this.lengths, slot + 1);
      const a = new Uint8Array(this.lengths.length);
      a.set(this.alive);
      this.alive = a;
    }
    const tokens = bm25Tokens(text);
    const counts = new Map<number, number>();
    for (const t of tokens) {
      let id = this.tokenIds.get(t);
      if (id === undefined) {
        id = this.tokenIds.size;
        this.tokenIds.set(t, id);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    if (this.pendingLength + counts.size * 3 > this.pending.length)
      this.pending = grow(this.pending, this.pendingLength + counts.size * 3);
    const pending = this.pending;
    let at = this.pendingLength;
    for (const [id, c] of counts) {
      pending[at++] = id;
      pending[at++] = slot;
      pending[at++] = c;
    }
    this.pendingLength = at;
    this.lengths[slot] = tokens.length;
    this.alive[slot] = 1;
    this.live++;
    this.totalTokens += tokens.length;
    // A bulk build merges as it goes, so the buffer stays near 12 MB, not the table's postings twice
    // (after the document is alive: a merge keeps live postings only).
    if (at >= this.pendingMerge * 3) this.compact();
    return slot;
  }

  remove(slot: number): void {
    if (slot >= this.slots || this.alive[slot] === 0) return;
    this.alive[slot] = 0;
    this.live--;
    this.deadSlots++;
    this.totalTokens -= this.lengths[slot];
  }

  /**
   * Folds the tail into the block and drops dead postings once either is a sizeable share of it:
   * a search walks every posting of its tokens, live or not. Slots are kept (callers hold them).
   */
  compactIfDue(): void {
    const block = this.blockDocs.length;
    const waiting = this.tailPostings + this.pendingLength / 3;
    if (waiting >= Math.max(50_000, block / 8) || this.deadSlots >= Math.max(1_000, this.live / 4)) this.compact();
    else this.placePending();
  }

  /** Moves the pending postings to the tail, where a search finds them by token. */
  private placePending(): void {
    const pending = this.pending;
    for (let i = 0; i < this.pendingLength; i += 3) {
      let list = this.tail.get(pending[i]);
      if (!list) this.tail.set(pending[i], (list = []));
      list.push(pending[i + 1], pending[i + 2]);
    }
    this.tailPostings += this.pendingLength / 3;
    this.releasePending();
  }

  private releasePending(): void {
    this.pendingLength = 0;
    // A bulk build's buffer is tens of MB; an incremental one is reused.
    if (this.pending.length > 1 << 16) this.pending = new Uint32Array(0);
  }

  compact(): void {
    const tokens = this.tokenIds.size;
    const counts = new Uint32Array(tokens + 1);
    // Tokens first seen after the block was built have no postings in it.
    const inBlock = this.offsets.length - 1;
    const each = (visit: (t: number, slot: number, freq: number) => void) => {
      for (let t = 0; t < tokens; t++) {
        if (t < inBlock)
          for (let i = this.offsets[t]; i < this.offsets[t + 1]; i++)
            if (this.alive[this.blockDocs[i]]) visit(t, this.blockDocs[i], this.blockFreqs[i]);
        const list = this.tail.get(t);
        if (list) for (let i = 0; i < list.length; i += 2) if (this.alive[list[i]]) visit(t, list[i], list[i + 1]);
      }
    };
    // Pending postings come after every tail posting, so each token's stay in slot order.
    const pending = this.pending;
    const eachPending = (visit: (t: number, slot: number, freq: number) => void) => {
      for (let i = 0; i < this.pendingLength; i += 3)
        if (this.alive[pending[i + 1]]) visit(pending[i], pending[i + 1], pending[i + 2]);
    };
    const count = (t: number) => counts[t + 1]++;
    each(count);
    eachPending(count);
    for (let t = 0; t < tokens; t++) counts[t + 1] += counts[t];
    const docs = new Uint32Array(counts[tokens]);
    const freqs = new Uint32Array(counts[tokens]);
    const at = counts.slice(0, tokens);
    const place = (t: number, slot: number, freq: number) => {
      docs[at[t]] = slot;
      freqs[at[t]++] = freq;
    };
    each(place);
    eachPending(place);
    this.offsets = counts;
    this.blockDocs = docs;
    this.blockFreqs = freqs;
    this.tail.clear();
    this.tailPostings = 0;
    this.releasePending();
    this.deadSlots = 0;
  }

  /**
   * Every live document holding a query token, whose file passes where a mask is given: the
   * first `count` entries of `slots`, each scored in `sums[slot]` (both are scratch arrays, valid
   * until the next search). The statistics are the whole index's, as LanceDB prefilters: a filter
   * narrows the candidates, not N or n.
   */
  search(
    query: string,
    mask?: { slotFile: Uint32Array; pass: Uint8Array },
  ): { slots: Uint32Array; count: number; sums: Float32Array } {
    if (this.sums.length < this.slots) {
      this.sums = new Float32Array(this.lengths.length);
      this.seen = new Uint32Array(this.lengths.length);
      this.touched = new Uint32Array(this.lengths.length);
      this.epoch = 0;
    }
    const sums = this.sums;
    const seen = this.seen;
    const touched = this.touched;
    let count = 0;
    if (this.live === 0) return { slots: touched, count, sums };
    if (this.pendingLength > 0) this.compactIfDue();
    const { k1, b } = this.params;
    const K = f(k1);
    const Bf = f(b);
    const K1p = f(K + 1);
    const oneMinusB = f(1 - Bf);
    const N = f(this.live);
    const avgdl = f(f(this.totalTokens) / N);
    const epoch = ++this.epoch;
    const alive = this.alive;
    const inBlock = this.offsets.length - 1;
    const slotFile = mask?.slotFile;
    const pass = mask?.pass;
    const norms = this.norms(K, Bf, oneMinusB, avgdl);
    for (const token of bm25Tokens(query)) {
      const t = this.tokenIds.get(token);
      if (t === undefined) continue;
      const start = t < inBlock ? this.offsets[t] : 0;
      const end = t < inBlock ? this.offsets[t + 1] : 0;
      const list = this.tail.get(t) ?? [];
      const docs = this.blockDocs;
      const freqs = this.blockFreqs;
      let n = 0;
      if (this.deadSlots === 0) n = end - start + list.length / 2;
      else {
        for (let i = start; i < end; i++) n += alive[docs[i]];
        for (let i = 0; i < list.length; i += 2) n += alive[list[i]];
      }
      if (n === 0) continue;
      const nf = f(n);
      const idf = f(Math.log(f(f(f(f(N - nf) + 0.5) / f(nf + 0.5)) + 1)));
      const add = (slot: number, freq: number) => {
        if (alive[slot] === 0 || (pass !== undefined && pass[(slotFile as Uint32Array)[slot]] === 0)) return;
        const fr = f(freq);
        const w = f(idf * f(f(K1p * fr) / f(fr + norms[slot])));
        if (seen[slot] !== epoch) {
          seen[slot] = epoch;
          sums[slot] = w;
          touched[count++] = slot;
        } else sums[slot] = sums[slot] + w;
      };
      // Two sources of postings, walked alike: the block, then the tail ([slot, freq] pairs).
      for (let i = start; i < end; i++) add(docs[i], freqs[i]);
      for (let i = 0; i < list.length; i += 2) add(list[i], list[i + 1]);
    }
    return { slots: touched, count, sums };
  }

  /**
   * Each slot's length normalisation, K (1 - b + b len / avgdl) in f32 as the search computed it per
   * posting; kept until a document is added or removed (avgdl moves with either).
   */
  private norms(K: number, Bf: number, oneMinusB: number, avgdl: number): Float32Array {
    const key = `${this.slots} ${this.live} ${this.totalTokens} ${K} ${Bf}`;
    if (this.normKey !== key) {
      if (this.normOf.length < this.lengths.length) this.normOf = new Float32Array(this.lengths.length);
      const lengths = this.lengths;
      for (let slot = 0; slot < this.slots; slot++)
        this.normOf[slot] = f(K * f(oneMinusB + f(f(Bf * f(lengths[slot])) / avgdl)));
      this.normKey = key;
    }
    return this.normOf;
  }

  /** The number of slots ever given (a mask over documents has this length). */
  get slotCount(): number {
    return this.slots;
  }

  /** Bytes held by the postings and per-document arrays (the token dictionary is counted apart). */
  postingBytes(): number {
    return (
      this.offsets.byteLength +
      this.blockDocs.byteLength +
      this.blockFreqs.byteLength +
      this.tailPostings * 2 * 8 +
      this.pending.byteLength +
      this.lengths.byteLength +
      this.alive.byteLength +
      this.sums.byteLength +
      this.normOf.byteLength +
      this.seen.byteLength +
      this.touched.byteLength
    );
  }

  get tokens(): number {
    return this.tokenIds.size;
  }
}
