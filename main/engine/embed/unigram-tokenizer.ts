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
  const root: TrieNode = { next: null, id: -1 };
  for (const [piece] of vocab) {
    let node = root;
    for (const ch of piece) {
      const cp = ch.codePointAt(0) as number;
      node.next ??= new Map();
      let child = node.next.get(cp);
      if (!child) node.next.set(cp, (child = { next: null, id: -1 }));
      node = child;
    }
    node.id = ids.get(piece) as number;
  }

  /** The best path over `text` (normalized): from[e], where the piece ending at e began; piece[e], its id or -1 when unknown. */
  const viterbi = (text: string) => {
    const cps: number[] = [];
    for (const ch of text) cps.push(ch.codePointAt(0) as number);
    const n = cps.length;
    const best = new Float64Array(n + 1);
    const from = new Int32Array(n + 1).fill(-1);
    const piece = new Int32Array(n + 1);
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
      let node: TrieNode | undefined = root;
      let single = false;
      for (let e = b; e < n && node?.next; e++) {
        node = node.next.get(cps[e]);
        if (!node) break;
        if (node.id >= 0) {
          relax(b, e + 1, scores[node.id], node.id);
          if (e === b) single = true;
        }
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

/** The normalizer (NFKC, then a prepended "▁") and Metaspace's spaces to "▁". */
function normalize(text: string): string {
  return (META + text.normalize('NFKC')).replaceAll(' ', META);
}
