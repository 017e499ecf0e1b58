/**
 * `cairn mcp --stdio`: the same tools over stdio for clients that only launch commands. The
 * mount config is captured once at start, as for HTTP. Resolves once serving; the session ends
 * when the client closes stdin (the caller then closes the engine, e.g. on stdin 'end').
 * Nothing else may write to stdout while serving: it carries the protocol.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { EngineApi } from '../api.js';
import { captureMountConfig } from './mount-config.js';
import { createMcpServer } from './server.js';

export async function serveStdio(engine: EngineApi): Promise<void> {
  const server = createMcpServer({ engine, mount: captureMountConfig(engine.settings) });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
}
