import { findOrStartEngine, mcpKeyFor, type RunningEngine } from './engine-door.js';
import { StdioBridge } from '../mcp/stdio-bridge.js';
import { EXIT } from './exit-codes.js';

/**
 * `cairn mcp --stdio`: a bridge from stdio to the engine that owns the data folder, started in
 * the background when none runs (engine-door.ts), so the stdio client and every HTTP client
 * share one engine, whichever came first. The client's first messages are read at once and
 * answered as soon as the engine listens (before its index and model load).
 */
export async function serveStdioCommand(home: string): Promise<number> {
  let engine: RunningEngine | null = null;
  const bridge = new StdioBridge({
    input: process.stdin,
    output: process.stdout,
    resolve: async () => {
      engine = await findOrStartEngine(home);
      return { url: engine.mcp, key: process.env.CAIRN_MCP_API_KEY ?? null };
    },
    key: async () => (engine ? mcpKeyFor(engine) : null),
    log: (line) => process.stderr.write(`cairn mcp --stdio: ${line}\n`),
  });
  const stop = () => void bridge.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  bridge.start();
  await bridge.finished;
  process.stdin.destroy();
  // Nothing of the bridge is left to finish: do not wait on an idle keep-alive socket.
  setTimeout(() => process.exit(EXIT.ok), 200).unref();
  return EXIT.ok;
}
