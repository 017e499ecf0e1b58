// Downloading a hub model, against a test double of the Hugging Face hub (the real one cannot be
// reached here): a local HTTP server serving a model folder under /<id>/resolve/main/<file>.
// The served model is a USE-lite build standing in for a quantized hub model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildUseLiteInto } from '../../main/engine/embed/builtin/build.js';
import { createEmbedder } from '../../main/engine/embed/embedder.js';
import { maxAbsDiff, loadReference, tempDataDir } from './helpers.js';

test('a hub model is downloaded once into <dataDir>/models/<id>, with progress, then used offline', async (t) => {
  const served = buildUseLiteInto(join(tempDataDir(t), 'served'));
  copyFileSync(join(served, 'onnx', 'model.onnx'), join(served, 'onnx', 'model_quantized.onnx'));
  const requested: string[] = [];
  const hub = createServer((req, res) => {
    const m = /^\/someone\/served-model\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const file = m ? join(served, decodeURIComponent(m[1])) : '';
    if (!m || !existsSync(file) || file.includes('..')) return void res.writeHead(404).end();
    const size = statSync(file).size;
    // transformers.js probes a file's size with `Range: bytes=0-0` before fetching it whole.
    if (req.headers.range === 'bytes=0-0')
      return void res
        .writeHead(206, { 'content-length': 1, 'content-range': `bytes 0-0/${size}` })
        .end(readFileSync(file).subarray(0, 1));
    requested.push(m[1]);
    res.writeHead(200, { 'content-length': size }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    hub.closeAllConnections();
    hub.close();
  });
  const remoteHost = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/`;

  const dataDir = tempDataDir(t);
  const progress: { file: string; loaded: number; total: number }[] = [];
  const embedder = await createEmbedder({
    model: 'someone/served-model',
    dataDir,
    threads: 2,
    remoteHost,
    onDownloadProgress: (p) => progress.push(p),
  });
  t.after(() => embedder.close());
  const cached = join(dataDir, 'models', 'someone', 'served-model');
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'])
    assert.ok(existsSync(join(cached, f)), `${f} cached`);
  const modelProgress = progress.filter((p) => p.file.endsWith('model_quantized.onnx'));
  assert.ok(modelProgress.length > 0, 'progress reported for the model file');
  assert.equal(modelProgress.at(-1)?.loaded, statSync(join(served, 'onnx', 'model_quantized.onnx')).size);
  assert.equal(
    requested.filter((r) => r === 'onnx/model_quantized.onnx').length,
    1,
    'downloaded once: the second worker loaded it from disk',
  );
  assert.equal(embedder.dimensions, 512);
  const ref = loadReference().sentences[2];
  assert.ok(maxAbsDiff((await embedder.embedDocuments([ref.text]))[0], ref.embedding) < 1e-5);
  await embedder.close();

  // Again, with the hub gone: everything comes from the cache.
  hub.closeAllConnections();
  hub.close();
  const offline = await createEmbedder({
    model: 'someone/served-model',
    dataDir,
    threads: 1,
    remoteHost,
    hubTimeoutMs: 500,
  });
  t.after(() => offline.close());
  assert.ok(maxAbsDiff(await offline.embedQuery(ref.text), ref.embedding) < 1e-5);
});
