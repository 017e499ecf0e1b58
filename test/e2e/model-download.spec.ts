// Changing the embedding model to a hub model that is not on this computer: the workbench shows
// the download's bytes and percent while it runs, then the re-index the change requires. The hub
// is a test double (hub-double.ts; the real hub cannot be reached here) serving the built-in
// model's own files, built by this engine, as a quantized hub model; it holds the model file
// half-sent until released, so the progress is seen for certain.
import { cpSync, copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineStatus } from '../../main/common/status.js';
import { startEngine, type RunningEngine } from './engine-process.js';
import { startHubDouble, type HubDouble } from './hub-double.js';
// Playwright's own test, not fixtures.ts's: that one starts an engine without HF_ENDPOINT.
import { expect, test } from '@playwright/test';
import { shootPanel } from './fixtures.js';

const MODEL_FILE = 'onnx/model_quantized.onnx';

let hub: HubDouble;
let engine: RunningEngine;
const served = join(mkdtempSync(join(tmpdir(), 'cairn-e2e-hub-')), 'served-model');

test.beforeAll(async () => {
  hub = await startHubDouble(served, 'someone/served-model', MODEL_FILE);
  engine = await startEngine({ HF_ENDPOINT: hub.url });
});

test.afterAll(async () => {
  await engine?.dispose();
  await hub?.close();
});

async function until(pred: (s: EngineStatus) => boolean): Promise<EngineStatus> {
  for (let i = 0; i < 1200; i++) {
    const s = await engine.api<EngineStatus>('GET', '/api/status');
    if (pred(s)) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`engine never reached the state: ${JSON.stringify(await engine.api('GET', '/api/status'))}`);
}

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a hook asks for from this pattern
test.afterEach(async ({}, info) => {
  if (info.status !== info.expectedStatus) await info.attach('engine-output', { body: engine.output(), contentType: 'text/plain' });
});

test('switch to a hub model: download progress, then re-index every folder with it', async ({ page }, info) => {
  // The built-in model, built by the engine, becomes what the hub double serves.
  await engine.api('POST', '/api/model/load');
  await until((s) => s.model.state === 'ready');
  const folder = mkdtempSync(join(tmpdir(), 'cairn-e2e-model-'));
  writeFileSync(join(folder, 'lock.md'), '# Locks\n\nThe canal lock opens twice an hour.\n');
  await engine.api('POST', '/api/folders', { path: folder });
  await until((s) => s.folders[0]?.state === 'fresh' && s.folders[0].embedded_chunks > 0);
  cpSync(join(engine.home, 'models', 'cairn', 'use-lite'), served, { recursive: true });
  copyFileSync(join(served, 'onnx', 'model.onnx'), join(served, MODEL_FILE));

  await page.goto(engine.workbenchUrl);
  const model = page.getByTestId('model');
  await expect(model.getByTestId('model-state')).toHaveText('ready');
  // The known models are offered, each saying whether it needs a download.
  await expect(model.getByTestId('model-choices')).toContainText('Xenova/bge-small-en-v1.5: 34 MB download');
  await model.getByLabel('Change model').fill('someone/served-model');
  let confirmText = '';
  page.once('dialog', (d) => {
    confirmText = d.message();
    void d.accept();
  });
  await model.getByTestId('model-change').click();
  await expect(model.getByTestId('model-id')).toHaveText('someone/served-model');
  expect(confirmText).toContain('re-indexed');

  await expect(model.getByTestId('model-state')).toHaveText('downloading');
  const bar = model.getByTestId('model-download-progress');
  await hub.holding;
  await expect(bar).toContainText(/Downloading \S*model_quantized\.onnx: [\d.]+ MB of [\d.]+ MB \(\d\d?(\.\d)?%\)/);
  await expect(page.getByTestId('contract-mismatch')).toBeVisible();
  await expect(model.getByTestId('rebuild-all')).toHaveText('Re-index all 1 folder with someone/served-model');
  await shootPanel(page, info, 'index');

  hub.release();
  await expect(model.getByTestId('model-state')).toHaveText('ready', { timeout: 60_000 });
  await expect(bar).toHaveCount(0);
  await model.getByTestId('rebuild-all').click();
  await expect(page.getByTestId('contract-mismatch')).toHaveCount(0, { timeout: 120_000 });
  const row = page.locator(`[data-testid="folder-row"][data-path="${folder}"]`);
  await expect(row).toHaveAttribute('data-state', 'fresh', { timeout: 120_000 });
  expect(hub.requested.filter((r) => r === MODEL_FILE)).toEqual([MODEL_FILE]);
});
