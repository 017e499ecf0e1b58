// Changing the embedding model to a hub model that is not on this computer: a download that fails
// never switches the model (the current one keeps serving, the error is in words, no re-index with
// the broken model is offered); one that succeeds shows its bytes and percent while it runs, is
// checked, and only then becomes the configured model, followed by the re-index it requires. The hub
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
import { shootCommitted, shootPanel } from './fixtures.js';

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
  if (info.status !== info.expectedStatus)
    await info.attach('engine-output', { body: engine.output(), contentType: 'text/plain' });
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
  await model.getByTestId('model-change').click();
  await expect(model.getByTestId('model-switch')).toHaveAttribute('data-state', 'downloading');
  const bar = model.getByTestId('model-download-progress');
  await hub.holding;
  await expect(bar).toContainText(/Downloading \S*model_quantized\.onnx: [\d.]+ MB of [\d.]+ MB \(\d\d?(\.\d)?%\)/);
  // While it downloads, the current model is still the configured one: nothing to re-index yet.
  await expect(model.getByTestId('model-id')).toHaveText('cairn/use-lite');
  await expect(page.getByTestId('contract-mismatch')).toHaveCount(0);
  await shootPanel(page, info, 'index');

  hub.release();
  await expect(model.getByTestId('model-id')).toHaveText('someone/served-model', { timeout: 60_000 });
  await expect(bar).toHaveCount(0);
  await expect(page.getByTestId('contract-mismatch')).toBeVisible();
  await expect(model.getByTestId('rebuild-all')).toHaveText('Re-index all 1 folder with someone/served-model');
  let confirmText = '';
  page.once('dialog', (d) => {
    confirmText = d.message();
    void d.accept();
  });
  await model.getByTestId('rebuild-all').click();
  expect(confirmText).toContain('embedded again');
  await expect(page.getByTestId('contract-mismatch')).toHaveCount(0, { timeout: 120_000 });
  const row = page.locator(`[data-testid="folder-row"][data-path="${folder}"]`);
  await expect(row).toHaveAttribute('data-state', 'fresh', { timeout: 120_000 });
  expect(hub.requested.filter((r) => r === MODEL_FILE)).toEqual([MODEL_FILE]);
});

test('a failed download never switches the model, and says why in words', async ({ page }) => {
  // The hub double serves no such model: it answers 404 for every file of it.
  await page.goto(engine.workbenchUrl);
  const model = page.getByTestId('model');
  await expect(model.getByTestId('model-id')).toHaveText('someone/served-model');
  await model.getByLabel('Change model').fill('someone/absent-model');
  await model.getByTestId('model-change').click();
  const failed = model.getByTestId('model-switch');
  await expect(failed).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
  const err = model.getByTestId('model-switch-error');
  await expect(err).toContainText('The embedding model is still someone/served-model');
  await expect(err).not.toContainText("reading '");
  await expect(err).not.toContainText('<dataDir>');
  await expect(model.getByTestId('model-id')).toHaveText('someone/served-model');
  await expect(model.getByTestId('rebuild-all')).toHaveCount(0);
  await shootCommitted(page, 'error-model-download-failed', 'model');
  const s = await engine.api<EngineStatus>('GET', '/api/status');
  expect(s.model.id).toBe('someone/served-model');
  expect(s.contract_mismatch).toBeNull();
  expect(s.folders.every((f) => f.state === 'fresh')).toBe(true);
  // The settings route cannot configure an unchecked model either.
  const patched = await fetch(`${engine.origin}/api/settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ values: { 'embedding.model': 'someone/absent-model' } }),
  });
  expect(patched.status).toBe(400);
  expect(
    (await engine.api<{ values: Record<string, unknown> }>('GET', '/api/settings')).values['embedding.model'],
  ).toBe('someone/served-model');
});
