/**
 * `cairn mcp --stdio`: the same tools over stdio for clients that only launch commands, in both
 * eras: the SDK's serveStdio picks the era from the connection's opening (`server/discover` with
 * the 2026-07-28 envelope, or the 2025 `initialize` handshake) and pins one server to it. The
 * mount config is captured once at start, as for HTTP. Resolves once serving; the session ends
 * when the client closes stdin (the caller then closes the engine, e.g. on stdin 'end').
 * Nothing else may write to stdout while serving: it carries the protocol.
 */
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import type { EngineApi } from '../api.js';
import { captureMountConfig } from './mount-config.js';
import { createMcpServer } from './server.js';
import { serveIndexTasks, TaskRegistry } from './index-tasks.js';

export async function serveStdio(engine: EngineApi): Promise<void> {
  const mount = captureMountConfig(engine.settings);
  const tasks = new TaskRegistry();
  const handle = serveSdkStdio(({ era }) => {
    const server = createMcpServer({ engine, mount });
    // One client per stdio connection: its task handles are its own.
    if (era === 'modern' && mount.toolset === 'full') serveIndexTasks(server, engine, tasks, 'stdio');
    return server;
  });
  process.stdin.once('end', () => void handle.close());
  await Promise.resolve();
}
