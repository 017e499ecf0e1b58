import { CairnError } from '../errors.js';
import { takeDataFolder } from '../data-folder.js';
import { StartingEngine } from '../starting-engine.js';
import { apiKeyStoreFor } from '../http/api-key-store.js';
import { startHttpServer } from '../http/server.js';
import { adminTokenFrom } from '../http/launch.js';
import { serveStdio } from '../mcp/stdio.js';
import { currentLayout, stdioCommand } from '../layout.js';
import { EXIT } from './exit-codes.js';


function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new CairnError('invalid_argument', `--port must be an integer from 0 to 65535, got ${value}`);
  return n;
}

/**
 * `cairn serve`: the long-running engine. It holds the data folder's lock, keeps folders fresh,
 * serves MCP, the admin API and the workbench, and shuts down cleanly on SIGINT/SIGTERM: jobs stop
 * at their next checkpoint, so nothing is left half-written.
 *
 * It listens as soon as it holds the lock, before the index opens: an MCP client can list the
 * tools meanwhile, and anything that needs the index waits for it (see StartingEngine). An index
 * that then fails to open stops the server with that error, as it would have before listening.
 */
export async function serve(home: string, opts: { port?: string; host?: string }): Promise<number> {
  const port = parsePort(opts.port);
  // Refused before anything opens: a short CAIRN_ADMIN_TOKEN would be guessable.
  const adminToken = adminTokenFrom(process.env);
  const folder = await takeDataFolder(home);
  const engine = new StartingEngine(folder, { home });
  const layout = currentLayout();
  let server;
  try {
    server = await startHttpServer(engine, {
      host: opts.host,
      port,
      adminToken,
      apiKeyStore: apiKeyStoreFor(home),
      rendererDir: layout.rendererDir ?? undefined,
      stdioCommand: stdioCommand(layout),
    });
  } catch (err) {
    await engine.close();
    throw err;
  }
  const listening = server;
  let stopping = false;
  const stopped = new Promise<number>((resolve) => {
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${signal}: stopping (finishing the current write)…\n`);
      await listening.close().catch(() => undefined);
      await engine.close();
      resolve(EXIT.ok);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
  await folder.lock?.update({ url: server.url, token: adminToken });
  const mount = engine.settings.get<string>('mcp.mount_path');
  process.stdout.write(
    [
      `Cairn engine serving ${engine.dataDir}`,
      `MCP: ${server.url}${mount}`,
      `Workbench: ${server.url}/#token=${adminToken}`,
      layout.rendererDir ? '' : '(the workbench is not built: run npm run build)',
      'Press Ctrl+C to stop.',
      '',
    ].filter((l, i, a) => l !== '' || i === a.length - 1).join('\n'),
  );
  try {
    // A stop that came while the index was opening closes it; nothing is left to watch.
    await engine.openAndWatch();
  } catch (err) {
    if (!stopping) {
      stopping = true;
      await server.close().catch(() => undefined);
      await engine.close();
      throw err;
    }
  }
  return stopped;
}

/**
 * `cairn mcp --stdio`: the same tools over stdio, for clients that only launch commands. As with
 * serve, the tools are listed while the index opens.
 */
export async function serveStdioCommand(home: string): Promise<number> {
  const engine = new StartingEngine(await takeDataFolder(home), { home });
  await serveStdio(engine);
  let stopping = false;
  const stopped = new Promise<number>((resolve) => {
    const stop = async () => {
      stopping = true;
      await engine.close();
      resolve(EXIT.ok);
    };
    process.stdin.once('end', () => void stop());
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  });
  try {
    await engine.openAndWatch();
  } catch (err) {
    if (!stopping) {
      await engine.close();
      throw err;
    }
  }
  return stopped;
}
