/** Admin routes over the MCP server: status, probe, restart (remount) and the API key. */
import { PROBE_ERAS, type ProbeEra } from '../../common/status.js';
import type { ApiKeyActionRequest } from '../../common/admin.js';
import { CairnError } from '../errors.js';
import { json } from '../web/responses.js';
import { jsonBody, type AdminContext } from './context.js';
import { mcpStatus } from './mcp-status.js';

type Handler = (req: Request, ctx: AdminContext) => Promise<Response>;

export const mcpRoutes: Record<string, Handler> = {
  'GET /api/mcp/status': async (_req, ctx) => json(200, await mcpStatus(ctx)),

  'POST /api/mcp/probe': async (req, ctx) => {
    const { query, era = 'auto' } = await jsonBody<{ query?: unknown; era?: unknown }>(req);
    if (typeof query !== 'string' || query.trim() === '') {
      throw new CairnError('invalid_argument', 'query must be a non-empty string', { details: { key: 'query' } });
    }
    if (!PROBE_ERAS.includes(era as ProbeEra)) {
      throw new CairnError('invalid_argument', `era must be one of ${PROBE_ERAS.join(', ')}`, {
        details: { key: 'era' },
      });
    }
    // Loaded on first use: the SDK's client is a large import `cairn serve` need not wait for.
    const { runProbe } = await import('./probe.js');
    const { status, body } = await runProbe(ctx, query, era as ProbeEra);
    return json(status, body);
  },

  'POST /api/mcp/restart': async (_req, ctx) => {
    await ctx.endpoint.remount();
    return json(200, await mcpStatus(ctx));
  },

  'GET /api/mcp/api-key': async (req, ctx) => {
    const key = await ctx.apiKeyStore.get();
    const reveal = new URL(req.url).searchParams.get('reveal') === '1';
    return json(200, reveal && key ? { set: true, key } : { set: key !== null });
  },

  'POST /api/mcp/api-key': async (req, ctx) => {
    const { action, key } = await jsonBody<ApiKeyActionRequest & { key?: unknown }>(req);
    if (action !== 'generate' && action !== 'rotate' && action !== 'set') {
      throw new CairnError('invalid_argument', 'action must be generate, rotate or set', {
        details: { key: 'action' },
      });
    }
    if (ctx.apiKeyStore.readOnlyReason) throw new CairnError('conflict', ctx.apiKeyStore.readOnlyReason);
    if (action === 'generate' && (await ctx.apiKeyStore.get()) !== null) {
      throw new CairnError('conflict', 'An API key is already set; rotate it to replace it.', {
        remedy: 'POST {"action":"rotate"}',
      });
    }
    if (action === 'set') {
      if (typeof key !== 'string')
        throw new CairnError('invalid_argument', 'key must be a string', { details: { key: 'key' } });
      // The store applies the key rule (main/common/api-key.ts): a weak key is refused, nothing changes.
      await ctx.apiKeyStore.set(key);
      return json(200, { set: true });
    }
    return json(200, { set: true, key: await ctx.apiKeyStore.rotate() });
  },
};
