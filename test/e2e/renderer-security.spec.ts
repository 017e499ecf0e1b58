// Renderer security in the browser build: no Node globals in the page, the CSP is sent and
// enforced (an injected inline script does not run), the page cannot be framed, and the page
// offers no navigation away from itself. (The Electron-only guarantees, navigation and window.open
// denied by the shell, are in electron.spec.ts, which runs where the Electron binary exists.)
import { expect, openWorkbench, test } from './fixtures.js';

test.use({ engineScope: 'renderer-security' });

test('no require, process or module in the page', async ({ page, engine }) => {
  await openWorkbench(page, engine);
  const globals = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return { require: typeof w.require, process: typeof w.process, module: typeof w.module, Buffer: typeof w.Buffer };
  });
  expect(globals).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined', Buffer: 'undefined' });
});

test('the workbench is served with a strict CSP header, and the built page carries it too', async ({
  page,
  engine,
}) => {
  const res = await page.goto(engine.workbenchUrl);
  const csp = res?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toContain("script-src 'self'");
});

test('an injected inline script is blocked by the CSP', async ({ page, engine }) => {
  await openWorkbench(page, engine);
  const outcome = await page.evaluate(async () => {
    const violated = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true }),
    );
    const s = document.createElement('script');
    s.textContent = 'window.__pwned = true';
    document.body.appendChild(s);
    const directive = await Promise.race([violated, new Promise<string>((r) => setTimeout(() => r('none'), 2000))]);
    return { ran: (window as unknown as { __pwned?: boolean }).__pwned === true, directive };
  });
  expect(outcome.ran).toBe(false);
  expect(outcome.directive).toMatch(/^script-src/);
});

test('the workbench cannot be framed by another page', async ({ page, engine }) => {
  await page.setContent(`<iframe id="f" src="${engine.origin}/" width="400" height="300"></iframe>`);
  await page.waitForTimeout(1500);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  const hasApp = frame
    ? await frame.evaluate(() => document.getElementById('root') !== null).catch(() => false)
    : false;
  expect(hasApp).toBe(false);
});

test('the page offers no navigation away: every link is in-page', async ({ page, engine }) => {
  await openWorkbench(page, engine);
  const hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs.length).toBeGreaterThan(0);
  expect(hrefs.filter((h) => !h.startsWith('#'))).toEqual([]);
  expect(await page.locator('form[action], base, iframe').count()).toBe(0);
});
