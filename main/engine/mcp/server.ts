/** Builds one MCP server (the SDK's McpServer) with the tools a mount exposes. */
import { McpServer } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { registerAgentTools } from './tools-agent.js';
import { registerFullTools } from './tools-full.js';
import { registerAnswerTool } from './tool-answer.js';
import { typeSdkToolErrors } from './results.js';
import { listFlatSchemas } from './flat-schemas.js';
import type { ToolContext } from './tool-context.js';
import { INSTRUCTIONS, SERVER_INFO, TOOLS_CACHE_HINT, advertisedCapabilities } from './server-identity.js';

/**
 * Without one, every McpServer builds its own Ajv instance with all formats, and a stateless
 * server is built per request. The server validates only what it asks of clients (elicitation,
 * which Cairn never sends), so one shared instance carries no state between clients.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

export function createMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { ...SERVER_INFO },
    {
      instructions: INSTRUCTIONS,
      capabilities: advertisedCapabilities('legacy', ctx.mount.toolset),
      cacheHints: { 'tools/list': TOOLS_CACHE_HINT, 'server/discover': TOOLS_CACHE_HINT },
      jsonSchemaValidator: SHARED_VALIDATOR,
    },
  );
  typeSdkToolErrors(server);
  listFlatSchemas(server);
  registerAgentTools(server, ctx);
  if (ctx.mount.toolset === 'full') registerFullTools(server, ctx);
  if (ctx.mount.generationUrl) registerAnswerTool(server, ctx);
  return server;
}
