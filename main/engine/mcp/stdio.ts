/**
 * `cairn mcp --stdio`: the same tools over stdio for clients that only launch commands. The
 * mount config is captured once at start, as for HTTP. Resolves when the client closes stdin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { EngineApi } from '../api.js';
import { captureMountConfig } from './mount-config.js';
import { createMcpServer } from './server.js';

export async function serveStdio(engine: EngineApi): Promise<void> {
  const server = createMcpServer({ engine, mount: captureMountConfig(engine.settings) });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // Set after connect: the protocol layer installs its own transport handlers there.
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await closed;
  await server.close();
}
