/** Playwright fixtures: one real engine per spec file (worker scope), and panel screenshots. */
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { startEngine, type RunningEngine } from './engine-process.js';

interface WorkerFixtures {
  /**
   * Each spec file sets its own value (`test.use({ engineScope: 'name' })`). Playwright runs
   * different worker-option values in different workers, so every file gets a fresh engine and
   * one file's folders or settings never leak into the next.
   */
  engineScope: string;
  engine: RunningEngine;
}

export const test = base.extend<{ engineLog: void }, WorkerFixtures>({
  engineScope: ['default', { scope: 'worker', option: true }],
  engine: [
    async ({ engineScope }, use) => {
      void engineScope;
      const engine = await startEngine();
      await use(engine);
      await engine.dispose();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  // When a test fails, the engine's own output is the first thing to read.
  engineLog: [
    async ({ engine }, use, info) => {
      await use();
      if (info.status !== info.expectedStatus)
        await info.attach('engine-output', { body: engine.output(), contentType: 'text/plain' });
    },
    { auto: true },
  ],
});

export { expect };

/** Opens the workbench the way a person does: the printed address, token in the hash. */
export async function openWorkbench(page: Page, engine: RunningEngine): Promise<void> {
  await page.goto(engine.workbenchUrl);
  await expect(page.getByTestId('mcp-state')).toHaveText('running');
}

/** Saves a panel's screenshot as a test artifact (test-results/e2e/<test>/panel-<id>.png). */
export async function shootPanel(page: Page, info: TestInfo, id: string): Promise<void> {
  const panel = page.getByTestId(`panel-${id}`);
  await panel.scrollIntoViewIfNeeded();
  const path = info.outputPath(`panel-${id}.png`);
  // The sticky top bar would be painted over tall panels; unstick it for the capture only.
  await panel.screenshot({ path, style: '.top { position: static !important; }' });
  await info.attach(`panel-${id}`, { path, contentType: 'image/png' });
}

/** Saves a screenshot that is committed (test/e2e/screenshots/<name>.png), to be looked at in review. */
export async function shootCommitted(page: Page, name: string, testId?: string): Promise<void> {
  const path = new URL(`./screenshots/${name}.png`, import.meta.url).pathname;
  const style = '.top { position: static !important; }';
  if (testId) {
    const el = page.getByTestId(testId);
    await el.scrollIntoViewIfNeeded();
    await el.screenshot({ path, style });
  } else {
    await page.screenshot({ path, style, fullPage: true });
  }
}
