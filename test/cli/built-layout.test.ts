/**
 * The shipped layouts, not the checkout: a real `npm run build` in a temporary copy of the
 * sources, and the file set electron-builder.yml packs (run with plain Node: the Electron binary
 * cannot run here, so that part stands in for the app's utilityProcess). In each, `cairn serve`
 * serves the built workbench, and the stdio entry it hands clients names files that exist.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { layoutFor } from '../../main/engine/layout.js';
import { buildCopy, packedCopy } from '../helpers/built-layout.js';
import { REPO } from '../helpers/cli.js';
import { servedAt, start } from '../helpers/processes.js';

let built: Awaited<ReturnType<typeof buildCopy>>;
let packed: Awaited<ReturnType<typeof packedCopy>>;
let home: string;

before(async () => {
  built = await buildCopy();
  packed = await packedCopy(built.root);
  home = await mkdtemp(join(tmpdir(), 'cairn-built-home-'));
});

after(async () => {
  await built?.cleanup();
  await packed?.cleanup();
  if (home) await rm(home, { recursive: true, force: true });
});

test('layoutFor tells the three layouts apart from where the engine modules sit', () => {
  const checkout = layoutFor(join(REPO, 'main', 'engine'));
  assert.equal(checkout.kind, 'checkout');
  assert.equal(checkout.bin, join(REPO, 'bin', 'cairn.mjs'));
  const b = layoutFor(join(built.root, 'dist', 'main', 'engine'));
  assert.equal(b.kind, 'built');
  assert.equal(b.root, built.root);
  assert.equal(b.rendererDir, join(built.root, 'renderer', 'dist'));
  assert.equal(b.bin, join(built.root, 'bin', 'cairn.mjs'));
  const p = layoutFor(join(packed.root, 'dist', 'main', 'engine'));
  assert.equal(p.kind, 'packaged');
  assert.equal(p.bin, null, 'electron-builder packs no bin/');
  assert.equal(p.rendererDir, join(packed.root, 'renderer', 'dist'));
  assert.ok(existsSync(p.cliEntry), p.cliEntry);
  // Control: a build without the workbench has no renderer dir rather than a wrong one.
  assert.equal(
    layoutFor(join(built.root, 'dist', 'main', 'engine'), (f) => !f.endsWith('index.html')).rendererDir,
    null,
  );
});

test('electron-builder.yml packs the engine entry, the preload and the built workbench, and no sources', () => {
  const files = new Set(packed.files);
  for (const f of [
    'package.json',
    'dist/main/engine/cli/main.js',
    'dist/main/engine/layout.js',
    'dist/main/app/main.js',
    'dist/preload/index.js',
    'renderer/dist/index.html',
  ]) {
    assert.ok(files.has(f), `${f} is packed`);
  }
  assert.ok(
    !packed.files.some((f) => f.endsWith('.ts') || f.endsWith('.map') || f.startsWith('main/') || f.startsWith('bin/')),
    'no sources, maps or bin/',
  );
});

async function serveFrom(
  command: string[],
  env: Record<string, string>,
): Promise<{ html: string; clients: { id: string; snippet: string }[] }> {
  const proc = start(command[0], [...command.slice(1), 'serve', '--port', '0'], { CAIRN_HOME: home, ...env });
  try {
    const { origin, token } = await servedAt(proc);
    assert.doesNotMatch(proc.out(), /workbench is not built/);
    const page = await fetch(`${origin}/`);
    assert.equal(page.status, 200);
    const html = await page.text();
    const res = await fetch(`${origin}/api/clients`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    return { html, clients: (await res.json()) as { id: string; snippet: string }[] };
  } finally {
    await proc.stop();
  }
}

function desktopEntry(clients: { id: string; snippet: string }[]): {
  command: string;
  args: string[];
  env: Record<string, string>;
} {
  const snippet = clients.find((c) => c.id === 'claude-desktop')!.snippet;
  return (
    JSON.parse(snippet) as { mcpServers: { cairn: { command: string; args: string[]; env: Record<string, string> } } }
  ).mcpServers.cairn;
}

test('built: bin/cairn.mjs serve serves the workbench; the stdio entry is absolute, exists and names the data folder', async () => {
  const { html, clients } = await serveFrom([process.execPath, join(built.root, 'bin', 'cairn.mjs')], {});
  assert.match(html, /src="[^"]*assets\/[^"]+\.js"/, 'the built page, not the source one');
  const entry = desktopEntry(clients);
  assert.ok(isAbsolute(entry.command) && existsSync(entry.command), entry.command);
  assert.equal(entry.args[0], join(built.root, 'bin', 'cairn.mjs'));
  assert.ok(existsSync(entry.args[0]));
  assert.deepEqual(entry.args.slice(1), ['mcp', '--stdio']);
  assert.equal(entry.env.CAIRN_HOME, home);
});

test("packed file set: the engine entry serves the workbench; the app's launcher is what clients get", async () => {
  const launcher = ['/opt/Cairn/cairn', '--mcp-stdio'];
  const { html, clients } = await serveFrom(
    [process.execPath, join(packed.root, 'dist', 'main', 'engine', 'cli', 'main.js')],
    {
      CAIRN_STDIO_LAUNCHER: JSON.stringify(launcher),
    },
  );
  assert.match(html, /src="[^"]*assets\/[^"]+\.js"/);
  const entry = desktopEntry(clients);
  assert.deepEqual([entry.command, ...entry.args], launcher);
  assert.equal(entry.env.CAIRN_HOME, home);
});
