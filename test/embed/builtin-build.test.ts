// Building the built-in model: into the data folder at first use, atomically, rebuilt when the
// converter's stamp changes; from the CLI; and shipped in the app bundle by scripts/bundle-model.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import {
  CONVERTER_VERSION,
  STAMP_FILE,
  builtinModelDir,
  ensureBuiltinModel,
  ensureBuiltinTokenizer,
  isCurrentBuild,
} from '../../main/engine/embed/builtin/build.js';
import { createEmbedder } from '../../main/engine/embed/embedder.js';
import { bundleModel } from '../../scripts/bundle-model.js';
import { tempDataDir } from './helpers.js';

const root = new URL('../..', import.meta.url).pathname;

test('the built-in model is built once into <dataDir>/models/cairn/use-lite with a version stamp', async (t) => {
  const dataDir = tempDataDir(t);
  const [a, b] = await Promise.all([ensureBuiltinModel(dataDir), ensureBuiltinModel(dataDir)]);
  assert.equal(a, join(dataDir, 'models', 'cairn', 'use-lite'));
  assert.equal(a, b);
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx', STAMP_FILE])
    assert.ok(existsSync(join(a, f)), f);
  const config = JSON.parse(readFileSync(join(a, 'config.json'), 'utf8')) as { model_type: string };
  assert.equal(config.model_type, 'bert');
  const tc = JSON.parse(readFileSync(join(a, 'tokenizer_config.json'), 'utf8')) as { model_max_length: number };
  assert.equal(tc.model_max_length, 128);
  const tok = JSON.parse(readFileSync(join(a, 'tokenizer.json'), 'utf8')) as {
    model: { type: string; unk_id: number; vocab: [string, number][] };
    normalizer: { normalizers: { type: string }[] };
    pre_tokenizer: { type: string };
  };
  assert.equal(tok.model.type, 'Unigram');
  assert.deepEqual(
    tok.model.vocab.slice(0, 3).map((p) => p[0]),
    ['<unk>', '<s>', '</s>'],
  );
  assert.equal(tok.model.unk_id, 0);
  assert.equal(tok.normalizer.normalizers[0].type, 'NFKC');
  assert.equal(tok.pre_tokenizer.type, 'Metaspace');
  assert.equal(JSON.parse(readFileSync(join(a, STAMP_FILE), 'utf8')).converter, CONVERTER_VERSION);
  // No temporary build folders are left behind.
  assert.deepEqual(readdirSync(join(dataDir, 'models', 'cairn')), ['use-lite']);
});

test('a build with another converter stamp is rebuilt at first use', async (t) => {
  const dataDir = tempDataDir(t);
  const dir = await ensureBuiltinModel(dataDir);
  const modelFile = join(dir, 'onnx', 'model.onnx');
  const firstMtime = statSync(modelFile).mtimeMs;
  writeFileSync(join(dir, STAMP_FILE), JSON.stringify({ converter: CONVERTER_VERSION - 1, source: 'old' }));
  writeFileSync(modelFile, 'broken');
  assert.equal(isCurrentBuild(dir), false);
  const embedder = await createEmbedder({ model: 'cairn/use-lite', dataDir, threads: 1 });
  t.after(() => embedder.close());
  assert.ok(isCurrentBuild(dir));
  assert.ok(statSync(modelFile).size > 20_000_000, 'the model was rebuilt');
  assert.equal((await embedder.embedQuery('rebuilt')).length, 512);
  assert.notEqual(statSync(modelFile).mtimeMs, firstMtime);
});

test('npm run model:build (builtin/cli.ts) writes a loadable folder', (t) => {
  const out = join(tempDataDir(t), 'use-lite');
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'main/engine/embed/builtin/cli.ts', out], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /built in \d+ ms/);
  assert.ok(isCurrentBuild(out));
  const again = spawnSync(process.execPath, ['--import', 'tsx', 'main/engine/embed/builtin/cli.ts', out], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.match(again.stdout, /already current/);
});

test('bundle-model ships a model in resources/models/<id>, and the embedder uses that copy', async (t) => {
  const resources = join(tempDataDir(t), 'resources', 'models');
  const dir = bundleModel('cairn/use-lite', { out: resources });
  assert.equal(dir, join(resources, 'cairn', 'use-lite'));
  // A hub model copied from a download folder keeps only the files transformers.js loads.
  const minilm = bundleModel('Xenova/all-MiniLM-L6-v2', { from: fakeDownload(t), out: resources });
  assert.deepEqual(readdirSync(minilm).sort(), ['config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json']);
  assert.deepEqual(readdirSync(join(minilm, 'onnx')), ['model_quantized.onnx']);

  const dataDir = tempDataDir(t);
  const embedder = await createEmbedder({ model: 'cairn/use-lite', dataDir, threads: 1, bundledModelsDir: resources });
  t.after(() => embedder.close());
  assert.equal((await embedder.embedQuery('bundled')).length, 512);
  assert.equal(existsSync(builtinModelDir(dataDir)), false, 'nothing was built in the data folder');
});

function fakeDownload(t: { after: (fn: () => void) => void }): string {
  const dir = join(tempDataDir(t), 'download');
  const files = [
    'config.json',
    'tokenizer.json',
    'tokenizer_config.json',
    'onnx/model_quantized.onnx',
    'onnx/model.onnx',
    'onnx/model_fp16.onnx',
    'README.md',
  ];
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), '{}');
  }
  return dir;
}

test("chunk sizing gets the built-in tokenizer's files alone, the same as the model's, and the model's own folder once built", async (t) => {
  const dataDir = tempDataDir(t);
  const dir = await ensureBuiltinTokenizer(dataDir);
  assert.equal(dir, `${builtinModelDir(dataDir)}.tokenizer`);
  for (const f of ['tokenizer.json', 'tokenizer_config.json', STAMP_FILE]) assert.ok(existsSync(join(dir, f)), f);
  // No model weights were converted for it, and the model's folder is still unbuilt.
  assert.ok(!existsSync(join(dir, 'onnx')));
  assert.ok(!existsSync(builtinModelDir(dataDir)));
  const model = await ensureBuiltinModel(dataDir);
  for (const f of ['tokenizer.json', 'tokenizer_config.json'])
    assert.equal(readFileSync(join(dir, f), 'utf8'), readFileSync(join(model, f), 'utf8'), f);
  assert.equal(await ensureBuiltinTokenizer(dataDir), model);
  // A stale stamp (another converter version) is rebuilt, as the model's is.
  const other = tempDataDir(t);
  const stale = await ensureBuiltinTokenizer(other);
  const stamp = JSON.parse(readFileSync(join(stale, STAMP_FILE), 'utf8')) as { converter: number };
  writeFileSync(join(stale, STAMP_FILE), JSON.stringify({ ...stamp, converter: CONVERTER_VERSION - 1 }));
  assert.equal(await ensureBuiltinTokenizer(other), stale);
  assert.equal(
    (JSON.parse(readFileSync(join(stale, STAMP_FILE), 'utf8')) as { converter: number }).converter,
    CONVERTER_VERSION,
  );
});
