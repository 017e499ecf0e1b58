// Serves the built harness on a loopback port of its own (module scripts do not load from file://).
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { test as base } from '@playwright/test';
import { HARNESS_OUT } from './vite.config';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

async function serve(): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const rel = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(HARNESS_OUT, rel === '/' ? 'index.html' : rel);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** `show(scene)` opens the harness on one scene and waits for it to render. */
export const test = base.extend<{ show: (scene: string) => Promise<void> }, { harness: string }>({
  harness: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter
    async ({}, use) => {
      const { url, server } = await serve();
      await use(url);
      await new Promise((r) => server.close(r));
    },
    { scope: 'worker' },
  ],
  show: async ({ page, harness }, use) => {
    await use(async (scene) => {
      await page.goto(`${harness}?scene=${encodeURIComponent(scene)}`);
      await page.waitForFunction(
        () =>
          document.getElementById('root')!.childElementCount > 0 || document.getElementById('root')!.textContent !== '',
      );
    });
  },
});
export { expect } from '@playwright/test';
