/**
 * A SentencePiece Unigram tokenizer (the built-in model's), computed straight from its
 * tokenizer.json: the same lattice, scores and tie-breaking as transformers.js (Viterbi, first best
 * wins, runs of unknown pieces fused), without its per-node allocations, about 50x faster. Parse
 * workers count with it on their own threads, the main thread needs no transformers.js at all
 * (about 40 MB of RSS; embed/embedder.ts), and the embedding workers encode with it for ONNX
 * Runtime (embed/onnx-extractor.ts). Only the tokenizer shape it reproduces exactly is accepted
 * (NFKC, a prepended "▁", Metaspace without splitting, no added tokens); anything else returns null.
 */
interface TrieNode {
  next: Map<number, TrieNode> | null;
  /** Vocabulary id of the piece ending here, or -1. */
  id: number;
}

interface TokenizerJson {
  normalizer?: { type?: string; normalizers?: { type?: string; prepend?: string }[] } | null;
  pre_tokenizer?: { type?: string; replacement?: string; split?: boolean } | null;
  post_processor?: unknown;
  added_tokens?: unknown[];
  model?: { type?: string; vocab?: [string, number][]; unk_id?: number; byte_fallback?: boolean };
}

interface TokenizerConfig {
  remove_space?: boolean;
  do_lowercase_and_remove_accent?: boolean;
  model_max_length?: unknown;
}

const META = '\u2581';

function reproducible(t: TokenizerJson, c: TokenizerConfig): boolean {
  const norms = t.normalizer?.type === 'Sequence' ? (t.normalizer.normalizers ?? []) : [];
  return (
    t.model?.type === 'Unigram' &&
    Array.isArray(t.model.vocab) &&
    typeof t.model.unk_id === 'number' &&
    !t.model.byte_fallback &&
    norms.length === 2 &&
    norms[0].type === 'NFKC' &&
    norms[1].type === 'Prepend' &&
    norms[1].prepend === META &&
    t.pre_tokenizer?.type === 'Metaspace' &&
    // Splitting at every "▁" would tokenize word by word, not the whole text as one lattice.
    t.pre_tokenizer.split === false &&
    (t.pre_tokenizer.replacement ?? META) === META &&
    !t.post_processor &&
    (t.added_tokens ?? []).length === 0 &&
    !c.remove_space &&
    !c.do_lowercase_and_remove_accent
  );
}

/** The tokenizer: `count` and `hasUnknown` take one word (no whitespace), `encode` any text. */
export interface UnigramTokenizer {
  /** Its token count. */
  count(word: string): number;
  /** Whether a piece of it is the unknown token, as `encode(word).includes(unk_id)` would say. */
  hasUnknown(word: string): boolean;
  /** A whole text's token ids, as transformers.js' `encode(text, { add_special_tokens: false })`. */
  encode(text: string): number[];
  /** The model's window (tokenizer_config.json's model_max_length), or null when it names none. */
  maxLength: number | null;
}

export function unigramTokenizer(tokenizer: unknown, config: unknown = {}): UnigramTokenizer | null {
  const t = tokenizer as TokenizerJson;
  const c = (config ?? {}) as TokenizerConfig;
  if (!t || typeof t !== 'object' || !reproducible(t, c)) return null;
  const window = c.model_max_length;
  const vocab = t.model?.vocab as [string, number][];
  const unkId = t.model?.unk_id as number;
  const scores = vocab.map((v) => v[1]);
  // As transformers.js: the unknown piece scores 10 below the worst piece; a repeated piece keeps its last id.
  scores[unkId] = Math.min(...scores) - 10;
  const unkScore = scores[unkId];
  const ids = new Map(vocab.map((v, i) => [v[0], i]));
  const trie = flatTrie(vocab, ids);
  let buffers = viterbiBuffers(64);

  /** The best path over `text` (normalized): from[e], where the piece ending at e began; piece[e], its id or -1 when unknown. */
  const viterbi = (text: string) => {
    // Reused across calls (each result is read before the next call): with the flat trie, counting
    // the 89k distinct words of 2,000 Markdown files took 71-104 ms against 155-214 (four arrays
    // allocated per word and a Map lookup per character before). A text longer than a chunk (a
    // megabyte with no space in it) gets arrays of its own, which are not kept.
    let own = buffers;
    if (text.length > own.cps.length) {
      own = viterbiBuffers(text.length <= REUSED_CHARS ? Math.min(REUSED_CHARS, 2 * text.length) : text.length);
      if (text.length <= REUSED_CHARS) buffers = own;
    }
    const { cps, best, from, piece } = own;
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.codePointAt(i) as number;
      cps[n++] = c;
      if (c > 0xffff) i++;
    }
    from.fill(-1, 0, n + 1);
    best[0] = 0;
    const relax = (b: number, e: number, score: number, id: number) => {
      const s = best[b] + score;
      // Candidates for e arrive in increasing b, the order transformers.js scans them: first best wins.
      if (from[e] < 0 || s > best[e]) {
        best[e] = s;
        from[e] = b;
        piece[e] = id === unkId ? -1 : id;
      }
    };
    for (let b = 0; b < n; b++) {
      let single = false;
      let node = trie.child(0, cps[b]);
      for (let e = b; node >= 0;) {
        const id = trie.piece[node];
        if (id >= 0) {
          relax(b, e + 1, scores[id], id);
          if (e === b) single = true;
        }
        if (++e >= n) break;
        node = trie.child(node, cps[e]);
      }
      if (!single) relax(b, b + 1, unkScore, unkId);
    }
    return { n, from, piece };
  };
  /** Pieces from the last back to the first; a run of unknown pieces is fused into one token. */
  const walkBack = (text: string, onToken: (id: number) => void) => {
    const { n, from, piece } = viterbi(text);
    for (let e = n; e > 0; e = from[e]) if (!(piece[e] < 0 && from[e] > 0 && piece[from[e]] < 0)) onToken(piece[e]);
  };

  let sawUnknown = false;
  const count = (word: string): number => {
    // NFKC leaves ASCII as it is, and ASCII words are nearly all of them.
    const text = /^[\x21-\x7e]*$/.test(word) ? META + word : normalize(word);
    let tokens = 0;
    sawUnknown = false;
    walkBack(text, (id) => {
      if (id < 0) sawUnknown = true;
      tokens++;
    });
    return tokens;
  };
  return {
    maxLength:
      typeof window === 'number' && Number.isInteger(window) && window > 0 && window <= 1_000_000 ? window : null,
    count,
    hasUnknown: (word) => {
      count(word);
      return sawUnknown;
    },
    encode: (text) => {
      // As transformers.js: an empty text has no tokens at all, not even the prepended "▁".
      if (text.length === 0) return [];
      const out: number[] = [];
      walkBack(normalize(text), (id) => out.push(id < 0 ? unkId : id));
      return out.reverse();
    },
  };
}

interface ViterbiBuffers {
  cps: Int32Array;
  best: Float64Array;
  from: Int32Array;
  piece: Int32Array;
}

function viterbiBuffers(size: number): ViterbiBuffers {
  return {
    cps: new Int32Array(size),
    best: new Float64Array(size + 1),
    from: new Int32Array(size + 1),
    piece: new Int32Array(size + 1),
  };
}

/** Texts up to this long are tokenized in arrays kept for the next call. */
const REUSED_CHARS = 4096;

/** Code points below this reach the root's children through a table; the rest by binary search. */
const ROOT_TABLE = 0x10000;

/**
 * The vocabulary's pieces as a trie in flat arrays: node k's children are entries
 * start[k]..start[k+1] of `cp`/`next`, sorted by code point (the root's also in a table).
 */
function flatTrie(vocab: [string, number][], ids: Map<string, number>) {
  const root: TrieNode = { next: null, id: -1 };
  for (const [piece] of vocab) {
    let node = root;
    for (const ch of piece) {
      const c = ch.codePointAt(0) as number;
      node.next ??= new Map();
      let child = node.next.get(c);
      if (!child) node.next.set(c, (child = { next: null, id: -1 }));
      node = child;
    }
    node.id = ids.get(piece) as number;
  }
  // Breadth first, so each node's children take consecutive numbers.
  const order: TrieNode[] = [root];
  const pieceIds: number[] = [];
  const starts: number[] = [];
  const cps: number[] = [];
  const kids: number[] = [];
  for (let k = 0; k < order.length; k++) {
    const node = order[k];
    pieceIds.push(node.id);
    starts.push(cps.length);
    for (const [c, child] of [...(node.next ?? [])].sort((x, y) => x[0] - y[0])) {
      cps.push(c);
      kids.push(order.length);
      order.push(child);
    }
  }
  starts.push(cps.length);
  const start = Int32Array.from(starts);
  const cp = Int32Array.from(cps);
  const next = Int32Array.from(kids);
  const table = new Int32Array(ROOT_TABLE).fill(-1);
  for (let j = start[0]; j < start[1]; j++) if (cp[j] < ROOT_TABLE) table[cp[j]] = next[j];
  return {
    piece: Int32Array.from(pieceIds),
    /** Node `k`'s child for code point `c`, or -1. */
    child(k: number, c: number): number {
      if (k === 0 && c < ROOT_TABLE) return table[c];
      let lo = start[k];
      let hi = start[k + 1] - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const m = cp[mid];
        if (m === c) return next[mid];
        if (m < c) lo = mid + 1;
        else hi = mid - 1;
      }
      return -1;
    },
  };
}

/** The normalizer (NFKC, then a prepended "▁") and Metaspace's spaces to "▁". */
function normalize(text: string): string {
  return (META + text.normalize('NFKC')).replaceAll(' ', META);
}
