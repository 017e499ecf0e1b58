/**
 * A Cairn HTTP server for the conformance run (scripts/conformance.mjs --start): the real engine
 * over a temp home with a few files indexed. Prints `{"url": ...}` on one line once listening and
 * serves until stdin closes or SIGTERM.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openEngine } from '../../main/engine/engine.js';
import { FileApiKeyStore } from '../../main/engine/http/api-key-store.js';
import { startHttpServer } from '../../main/engine/http/server.js';
import { FILES } from './fixtures.js';

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-conformance-'));
  const data = join(root, 'data');
  for (const [rel, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(data, rel)), { recursive: true });
    await writeFile(join(data, rel), text);
  }
  const engine = await openEngine({ home: join(root, 'home') });
  // e.g. '{"mcp.stateless_http": false}' to run the suite against sessions.
  if (process.env.CAIRN_CONFORMANCE_SETTINGS)
    engine.settings.set(JSON.parse(process.env.CAIRN_CONFORMANCE_SETTINGS) as Record<string, unknown>);
  await engine.addFolder({ path: data });
  await engine.indexFolder(data, 'create');
  await engine.idle();
  const server = await startHttpServer(engine, {
    host: '127.0.0.1',
    port: Number(process.env.CAIRN_CONFORMANCE_PORT ?? 0),
    adminToken: randomBytes(24).toString('base64url'),
    apiKeyStore: new FileApiKeyStore(join(root, 'home'), {}),
    stdioCommand: ['cairn', 'mcp', '--stdio'],
  });
  process.stdout.write(`${JSON.stringify({ url: `${server.url}${engine.settings.get<string>('mcp.mount_path')}` })}\n`);
  const stop = async () => {
    await server.close();
    await engine.close();
    await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.stdin.once('end', () => void stop());
  process.stdin.resume();
}

main().catch((err: unknown) => {
  process.stderr.write(`conformance server failed: ${String(err)}\n`);
  process.exit(1);
});
