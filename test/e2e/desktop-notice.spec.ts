// The desktop app's page before its engine ever answered. The shell serves the workbench itself
// (app://workbench), so the page can be open while the engine starts, or when it cannot start at
// all; it must then say "starting" or "could not start" and what to do, never the browser's
// "start it with npm start". Test doubles for what cannot run here (no Electron binary, no
// display), each standing where Electron would:
// - Electron's protocol.handle: a loopback HTTP server handing every request to the shell's own
//   app:// handler (main/app/app-scheme.ts) as app://workbench/<path>;
// - the preload's window.cairn: the same three members, injected before the page loads;
// - utilityProcess.fork: Node's fork, under the shell's real EngineSupervisor.
// The engine in the last test is the real one (`cairn serve`).
import { test, expect } from '@playwright/test';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { appSchemeHandler } from '../../main/app/app-scheme.js';
import { EngineSupervisor, type SpawnEngine } from '../../main/app/engine-supervisor.js';
import { repoRoot } from './engine-process.js';
import { shootCommitted } from './fixtures.js';

test.describe.configure({ mode: 'serial' });

const dir = mkdtempSync(join(tmpdir(), 'cairn-desktop-notice-'));
const script = (name: string, body: string) => {
  const file = join(dir, name);
  writeFileSync(file, body);
  return file;
};
/** An engine that is slow to start: it never prints its address while the test looks. */
const slow = script('slow.mjs', `process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);`);
/** An engine that cannot start: it exits at once with code 3. */
const broken = script('broken.mjs', `process.exit(3);`);

const children: ChildProcess[] = [];
const spawn: SpawnEngine = (entry, args, env) => {
  const tsx = entry.endsWith('.ts');
  const child = fork(entry, args, {
    env: { ...process.env, ...env },
    // The stand-in scripts are plain .mjs; the real engine runs from source through tsx.
    execArgv: tsx ? ['--import', 'tsx'] : [],
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.push(child);
  return child;
};

let sup: EngineSupervisor | null = null;
let server: Server;
let origin = '';

function supervise(entry: string, args: string[] = [], env: Record<string, string> = {}): EngineSupervisor {
  sup = new EngineSupervisor({
    spawn,
    entry,
    args,
    env,
    adminToken: 'desktop-notice-token',
    initialBackoffMs: 50,
    maxQuickCrashes: 2,
  });
  sup.start();
  return sup;
}

test.beforeAll(async () => {
  const handler = appSchemeHandler(
    join(repoRoot, 'renderer', 'dist'),
    { address: () => sup?.address() ?? null, away: () => sup?.away() ?? null },
    (url, init) => fetch(url, init),
  );
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
    );
    const answer = await handler(new Request(`app://workbench${req.url}`, { method: req.method, headers, body }));
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.writeHead(answer.status);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await sup?.stop();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await new Promise((r) => server.close(r));
});

test.beforeEach(async ({ page }) => {
  // The preload's bridge, as preload/index.ts exposes it.
  await page.addInitScript(() => {
    (window as unknown as { cairn: unknown }).cairn = {
      isDesktop: true,
      pickFolder: async () => null,
      revealFile: async () => false,
    };
  });
});

test('while the engine starts, the page says it is starting, not that it does not answer', async ({ page }) => {
  const s = supervise(slow);
  expect(s.away()?.engine).toBe('starting');
  await page.goto(origin + '/');
  const banner = page.getByTestId('reconnect-banner');
  await expect(banner).toHaveAttribute('data-engine', 'starting');
  await expect(banner).toContainText('Starting the engine…');
  await expect(page.getByTestId('mcp-state')).toHaveText('starting');
  await expect(page.getByText('not answering')).toHaveCount(0);
  await expect(page.getByText('npm start')).toHaveCount(0);
  // One notice for the page, not a red box in every panel that loads on its own.
  await expect(page.getByText('Loading client configurations…')).toBeVisible();
  await expect(page.locator('.error-note')).toHaveCount(0);
  await shootCommitted(page, 'desktop-engine-starting');
  await s.stop();
});

test('an engine that cannot start: the page says so, how often it stopped, and what to do', async ({ page }) => {
  const s = supervise(broken);
  await expect.poll(() => s.current, { timeout: 20_000 }).toBe('failed');
  await page.goto(origin + '/');
  const banner = page.getByTestId('reconnect-banner');
  await expect(banner).toHaveAttribute('data-engine', 'failed');
  await expect(banner).toHaveAttribute('role', 'alert');
  // The first run and two restarts, each ending with code 3.
  await expect(banner).toContainText('The engine could not be started: it stopped 3 times in a row');
  await expect(banner).toContainText('last exit code 3');
  await expect(page.getByTestId('reconnect-remedy')).toContainText("Restart engine in Cairn's tray menu");
  await expect(page.getByTestId('mcp-state')).toHaveText('could not start');
  await expect(page.getByText('npm start')).toHaveCount(0);
  await expect(page.locator('.error-note')).toHaveCount(0);
  await shootCommitted(page, 'desktop-engine-failed');
  await s.stop();
});

test('the control: the same page under the same shell, with the real engine, connects and runs', async ({ page }) => {
  const home = mkdtempSync(join(tmpdir(), 'cairn-desktop-notice-home-'));
  const s = supervise(join(repoRoot, 'main', 'engine', 'cli', 'main.ts'), ['serve', '--port', '0'], {
    CAIRN_HOME: home,
    LANCEDB_LOG: 'error',
  });
  await page.goto(origin + '/');
  await expect(page.getByTestId('mcp-state')).toHaveText('running', { timeout: 90_000 });
  await expect(page.getByTestId('reconnect-banner')).toHaveCount(0);
  expect(s.away()).toBeNull();
  // And once it is gone under a page that had answers, the page says so, in the shell's words.
  await s.stop();
  await expect(page.getByTestId('reconnect-banner')).toHaveAttribute('data-engine', 'stopping', { timeout: 20_000 });
  // The status card keeps what it last knew, but its pill no longer says running.
  await expect(page.getByTestId('mcp-state')).toHaveText('stopping');
});
