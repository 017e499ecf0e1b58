/**
 * `tools/list` answered by the stdio bridge while the engine is not reachable yet: the MCP server
 * the engine would mount (createMcpServer, the same tool declarations, schemas and cache hints),
 * built in this process over a mount captured from the data folder's settings, and asked through
 * the SDK's own transports, 2026-07-28 or 2025-era as the message is. So the list is the engine's
 * by construction, not a copy of it. Nothing here opens the index or loads a model, and no tool
 * runs here: the bridge sends `tools/call` (and everything but the list) to the engine.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { EngineApi, SettingsApi } from '../api.js';
import { CairnError } from '../errors.js';
import { captureMountConfig } from './mount-config.js';
import { createMcpServer } from './server.js';
import { serveIndexTasks, TaskRegistry } from './index-tasks.js';
import type { ToolContext } from './tool-context.js';

/**
 * Listing calls no engine method; should one ever be called here, it fails typed rather than
 * answering from nothing.
 */
function engineNotStarted(settings: SettingsApi): EngineApi {
  return new Proxy({ settings } as unknown as EngineApi, {
    get: (target, key) =>
      key in target
        ? (Reflect.get(target, key) as unknown)
        : () => Promise.reject(new CairnError('dependency_unavailable', "Cairn's engine has not started yet.")),
  });
}

/**
 * The engine's answer to one `tools/list` (the JSON-RPC line as the client sent it, with the
 * headers the bridge would post it with), or null when the message is not one to answer here.
 */
export async function listToolsBeforeEngine(
  settings: SettingsApi,
  line: string,
  headers: Record<string, string>,
): Promise<string | null> {
  const body = JSON.parse(line) as { method?: unknown };
  if (body.method !== 'tools/list') return null;
  const ctx: ToolContext = { engine: engineNotStarted(settings), mount: captureMountConfig(settings) };
  const req = new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: line,
  });
  if (!(await isLegacyRequest(req, body))) {
    // As the endpoint's modern leg builds its server (the Tasks extension marks index_update).
    const handler = createMcpHandler(
      () => {
        const server = createMcpServer(ctx);
        if (ctx.mount.toolset === 'full') serveIndexTasks(server, ctx.engine, new TaskRegistry(), 'in-process');
        return server;
      },
      { legacy: 'reject', responseMode: 'auto' },
    );
    try {
      return await answerText(await handler.fetch(req, { parsedBody: body }));
    } finally {
      await handler.close();
    }
  }
  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await answerText(await transport.handleRequest(req, { parsedBody: body }));
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

/** The JSON answer, or null for anything else (the bridge then waits for the engine, as before). */
async function answerText(res: Response): Promise<string | null> {
  const text = await res.text();
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('application/json')) return null;
  return text;
}
