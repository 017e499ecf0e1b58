// The embedding model's state over the admin API, against the real engine and HTTP server, with
// a hub model downloaded from a test double of the Hugging Face hub (the real one cannot be
// reached here; test/e2e/hub-double.ts, found through HF_ENDPOINT) serving a real model: a
// USE-lite build standing in for a quantized hub model. The model file is held half-sent, so
// `downloading` with its bytes is seen for certain, then released.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineStatus } from '../../main/common/status.js';
import { buildUseLiteInto } from '../../main/engine/embed/builtin/build.js';
import { SettingsStore } from '../../main/engine/config/settings-store.js';
import { openEngine } from '../../main/engine/engine.js';
import { FileApiKeyStore } from '../../main/engine/http/api-key-store.js';
import { startHttpServer } from '../../main/engine/http/server.js';
import { startHubDouble } from '../e2e/hub-double.js';

const MODEL_FILE = 'onnx/model_quantized.onnx';

test('a hub model not on disk: missing, then downloading with bytes and percent, then ready; a model the hub lacks is an error with its remedy', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'cairn-admin-model-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const served = buildUseLiteInto(join(root, 'served'));
  copyFileSync(join(served, 'onnx', 'model.onnx'), join(served, MODEL_FILE));
  const hub = await startHubDouble(served, 'someone/served-model', MODEL_FILE);
  t.after(() => hub.close());
  process.env.HF_ENDPOINT = hub.url;

  const home = join(root, 'home');
  new SettingsStore(home).set({ 'embedding.model': 'someone/served-model', 'embedding.threads': 1 });
  const engine = await openEngine({ home });
  const adminToken = randomBytes(24).toString('base64url');
  const server = await startHttpServer(engine, {
    host: '127.0.0.1',
    port: 0,
    adminToken,
    apiKeyStore: new FileApiKeyStore(home, {}),
    stdioCommand: ['cairn', 'mcp', '--stdio'],
  });
  t.after(async () => {
    await server.close();
    await engine.close();
  });
  const admin = (method: string, path: string) =>
    fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
  const model = async () => ((await (await admin('GET', '/api/status')).json()) as EngineStatus).model;
  const until = async (what: string, pred: (m: EngineStatus['model']) => boolean) => {
    let m = await model();
    for (let i = 0; i < 600 && !pred(m); i++) {
      await new Promise((r) => setTimeout(r, 100));
      m = await model();
    }
    assert.ok(pred(m), `${what}: ${JSON.stringify(m)}`);
    return m;
  };

  assert.equal((await model()).state, 'missing', 'not on this computer yet');
  const load = await admin('POST', '/api/model/load');
  assert.equal(load.status, 202);

  await hub.holding;
  const size = statSync(join(served, MODEL_FILE)).size;
  const mid = await until(
    'downloading with the model file half there',
    (m) => (m.download?.files.find((f) => f.file.endsWith(MODEL_FILE))?.loaded_bytes ?? 0) > 0,
  );
  assert.equal(mid.state, 'downloading');
  const file = mid.download?.files.find((f) => f.file.endsWith(MODEL_FILE));
  assert.equal(file?.total_bytes, size);
  assert.ok(file && file.loaded_bytes < size, 'held at half');
  assert.ok(
    mid.download && mid.download.percent !== null && mid.download.percent > 0 && mid.download.percent < 100,
    `percent ${mid.download?.percent}`,
  );
  assert.ok(mid.download && mid.download.loaded_bytes <= mid.download.total_bytes);

  hub.release();
  const ready = await until('ready', (m) => m.state === 'ready');
  assert.equal(ready.download, undefined);
  assert.equal(ready.dimensions, 512);
  assert.deepEqual(
    hub.requested.filter((r) => r === MODEL_FILE),
    [MODEL_FILE],
    'downloaded once',
  );

  // A model the hub does not have: a typed failure with what to do, instead of a hang.
  engine.settings.set({ 'embedding.model': 'someone/absent-model' });
  assert.equal((await admin('POST', '/api/model/load')).status, 202);
  const failed = await until('error', (m) => m.state === 'error');
  assert.match(failed.error ?? '', /someone\/absent-model/);
  assert.match(failed.remedy ?? '', /models/);
  assert.equal(failed.download, undefined);
});
