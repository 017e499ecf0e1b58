import type { RunningEngine } from './engine-door.js';
import { StdioBridge } from '../mcp/stdio-bridge.js';
import type { Toolset } from '../mcp/server-identity.js';
import { EXIT } from './exit-codes.js';

/**
 * `cairn mcp --stdio`: a bridge from stdio to the engine that owns the data folder, started in
 * the background when none runs (engine-door.ts), so the stdio client and every HTTP client
 * share one engine, whichever came first. The bridge reads stdin before anything heavy loads
 * and answers `initialize` / `server/discover` itself, and `tools/list` too until the engine is
 * reached (from the data folder's settings, by the MCP server the engine would mount); the
 * engine door loads while the client's handshake is already answered, and its other messages
 * are answered as soon as the engine listens (before its index and model load).
 */
export async function serveStdioCommand(home: string): Promise<number> {
  let engine: RunningEngine | null = null;
  const door = import('./engine-door.js');
  const bridge = new StdioBridge({
    input: process.stdin,
    output: process.stdout,
    resolve: async () => {
      engine = await (await door).findOrStartEngine(home);
      return { url: engine.mcp, key: process.env.CAIRN_MCP_API_KEY ?? null };
    },
    key: async () => (engine ? (await door).mcpKeyFor(engine) : null),
    toolset: async () => {
      const { SettingsStore } = await import('../config/settings-store.js');
      return new SettingsStore(home).get<Toolset>('mcp.toolset');
    },
    listTools: async (line, headers) => {
      const [{ SettingsStore }, { listToolsBeforeEngine }] = await Promise.all([
        import('../config/settings-store.js'),
        import('../mcp/tools-before-engine.js'),
      ]);
      return listToolsBeforeEngine(new SettingsStore(home), line, headers);
    },
    log: (line) => process.stderr.write(`cairn mcp --stdio: ${line}\n`),
  });
  const stop = () => void bridge.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  bridge.start();
  // The engine starts now, beside the handshake the bridge answers itself: a client that lists
  // the tools and leaves (a health check) still finds one serving soon after, and the first tool
  // call waits less.
  void door.then((d) => d.ensureEngineStarting(home)).catch(() => undefined);
  await bridge.finished;
  process.stdin.destroy();
  // A client that left right after the handshake (answered here) still leaves an engine behind,
  // as one that waited for it would: the next client, HTTP or stdio, finds it serving.
  if (!engine) await (await door).ensureEngineStarting(home).catch(() => undefined);
  // Nothing of the bridge is left to finish: do not wait on an idle keep-alive socket.
  setTimeout(() => process.exit(EXIT.ok), 200).unref();
  return EXIT.ok;
}
