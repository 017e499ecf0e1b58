// Component tests of the workbench: each renderer component mounted alone (harness/, built by
// `npm run test:components` with Vite) in Debian's Chromium, no engine. The workbench against a
// real engine is test/e2e.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from '../e2e/playwright.config';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/components',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    permissions: ['clipboard-read', 'clipboard-write'],
    screenshot: 'only-on-failure',
  },
});
