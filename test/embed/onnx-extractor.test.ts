// The built-in model runs on ONNX Runtime directly (embed/onnx-extractor.ts), with Cairn's own
// tokenizer, padding, truncation and pooling. transformers.js is the reference it must equal: the
// same ids for every text, the same vectors to float precision, in batches of mixed lengths.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AutoTokenizer, pipeline } from '@huggingface/transformers';
import { createEmbedder, type CairnEmbedder } from '../../main/engine/embed/embedder.js';
import { builtinModelDir } from '../../main/engine/embed/builtin/build.js';
import { loadOnnxExtractor } from '../../main/engine/embed/onnx-extractor.js';
import type { WorkerConfig } from '../../main/engine/embed/protocol.js';
import { readUnigramTokenizerSync } from '../../main/engine/embed/unigram-files.js';
import { GEO_PY, GUIDE_MD, INVOICE_TS, LIB_RS, README_MD } from '../helpers/fixtures.js';
import { seeded } from '../helpers/random.js';
import { maxAbsDiff, tempDataDir } from './helpers.js';

type Reference = (texts: string[], o: { pooling: 'mean'; normalize: boolean }) => Promise<{ data: Float32Array }>;

/** Texts of every shape: documents, their pieces, whitespace runs, odd Unicode, empty, past the window. */
function texts(): string[] {
  const docs = [README_MD, GUIDE_MD, INVOICE_TS, GEO_PY, LIB_RS];
  const out = ['', ' ', '\n', '  leading and trailing  ', 'a\tb\nc\r\nd', 'Hello world', '<s> x </s> <unk>'];
  out.push('ﬁnance ½™ 😀😀a 中文日本語 \u0301e a\u200bb ¨ x¨y \u3000 \u00ad ▁ ▁▁x', 'wordy'.repeat(60));
  for (const d of docs) out.push(d, d.slice(0, 300), d.split('\n').slice(3, 12).join('\n'));
  const rand = seeded(11);
  const chars = [...'aZ09 _-.,;:()[]{}<>/\\\'"`~!@#$%^&*+=|?\t\né©¨ﬁ½™中文😀\u0301\u200b\u00ad▁  '];
  for (let k = 0; k < 150; k++) {
    let t = '';
    for (let j = 0; j < 1 + ((k * 7) % 90); j++) t += chars[rand.int(chars.length)];
    out.push(t);
  }
  return out;
}

describe('ONNX Runtime without transformers.js, for the built-in model', () => {
  const cleanups: (() => void)[] = [];
  const dataDir = tempDataDir({ after: (fn) => cleanups.push(fn) });
  let embedder: CairnEmbedder;
  let modelDir: string;

  before(async () => {
    embedder = await createEmbedder({ model: 'cairn/use-lite', dataDir, threads: 1, batchSize: 7 });
    modelDir = builtinModelDir(dataDir);
  });
  after(async () => {
    await embedder?.close();
    cleanups.forEach((fn) => fn());
  });

  test('ids equal transformers.js for every text, and the window is the tokenizer config’s', async () => {
    const fast = readUnigramTokenizerSync(modelDir);
    assert.ok(fast);
    const reference = await AutoTokenizer.from_pretrained(modelDir, { local_files_only: true });
    let long = 0;
    for (const t of texts()) {
      const ids = reference.encode(t, { add_special_tokens: false });
      assert.deepEqual(fast.encode(t), ids, JSON.stringify(t.slice(0, 60)));
      if (ids.length > 128) long++;
    }
    assert.ok(long >= 3, `${long} texts pass the 128-token window, so truncation is exercised`);
  });

  test('vectors equal the transformers.js pipeline (max abs diff < 1e-6), batched in mixed lengths', async () => {
    const all = texts();
    const reference = (await pipeline('feature-extraction', modelDir, {
      dtype: 'fp32',
      local_files_only: true,
    })) as unknown as Reference;
    const ours = await embedder.embedDocuments(all);
    let worst = 0;
    for (let i = 0; i < all.length; i += 5) {
      const batch = all.slice(i, i + 5).map((t) => (t.length === 0 ? ' ' : t));
      const { data } = await reference(batch, { pooling: 'mean', normalize: true });
      batch.forEach((t, k) => {
        const d = maxAbsDiff(ours[i + k], data.subarray(k * 512, (k + 1) * 512));
        worst = Math.max(worst, d);
        assert.ok(d < 1e-6, `max abs diff ${d} for ${JSON.stringify(t.slice(0, 40))}`);
      });
    }
    // Control: the comparison sees a real difference (two different texts' vectors).
    assert.ok(maxAbsDiff(ours[5], ours[6]) > 1e-3);
    assert.ok(worst < 1e-6, `worst ${worst}`);
  });

  test('loads for the built-in folder; a tokenizer it does not reproduce, or a hub id, falls back', async () => {
    const config: WorkerConfig = {
      modelRef: modelDir,
      modelsDir: join(dataDir, 'models'),
      allowRemote: false,
      dtype: 'fp32',
      onnxFile: 'onnx/model.onnx',
      pooling: 'mean',
      hubTimeoutMs: 1000,
    };
    const direct = await loadOnnxExtractor(config);
    assert.ok(direct, 'the built-in folder runs on ONNX Runtime directly');
    const { data: v } = await direct.embed(['Hello world']);
    const [w] = await embedder.embedDocuments(['Hello world']);
    assert.ok(maxAbsDiff(v, w) < 1e-7);
    await direct.dispose();

    assert.equal(await loadOnnxExtractor({ ...config, allowRemote: true, modelRef: 'owner/model' }), null);
    // Splitting at every "▁" tokenizes word by word: not the lattice this tokenizer computes.
    const copy = join(dataDir, 'split-copy');
    cpSync(modelDir, copy, { recursive: true });
    const file = join(copy, 'tokenizer.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { pre_tokenizer: { split: boolean } };
    json.pre_tokenizer.split = true;
    writeFileSync(file, JSON.stringify(json));
    assert.equal(await loadOnnxExtractor({ ...config, modelRef: copy }), null);
    // Without a window in tokenizer_config.json there is no truncation to reproduce either.
    json.pre_tokenizer.split = false;
    writeFileSync(file, JSON.stringify(json));
    const cfg = join(copy, 'tokenizer_config.json');
    const c = JSON.parse(readFileSync(cfg, 'utf8')) as Record<string, unknown>;
    const restored = await loadOnnxExtractor({ ...config, modelRef: copy });
    assert.ok(restored, 'control: the same copy loads once split is false again');
    await restored.dispose();
    delete c.model_max_length;
    writeFileSync(cfg, JSON.stringify(c));
    assert.equal(await loadOnnxExtractor({ ...config, modelRef: copy }), null);
  });
});
