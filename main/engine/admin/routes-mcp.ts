/** Admin routes over the MCP server: status, probe, restart (remount) and the API key. */
import { CairnError } from '../errors.js';
import { Reply, type AdminHandlers } from './handlers.js';
import { mcpStatus } from './mcp-status.js';

export const mcpRoutes = {
  mcpStatus: async (_in, ctx) => mcpStatus(ctx),

  probe: async ({ query, era = 'auto' }, ctx) => {
    if (query.trim() === '') {
      throw new CairnError('invalid_argument', 'query must be a non-empty string', { details: { key: 'query' } });
    }
    // Loaded on first use: the SDK's client is a large import `cairn serve` need not wait for.
    const { runProbe } = await import('./probe.js');
    const { status, body } = await runProbe(ctx, query, era);
    return new Reply(status, body);
  },

  restartMcp: async (_in, ctx) => {
    await ctx.endpoint.remount();
    return mcpStatus(ctx);
  },

  apiKey: async (q, ctx) => {
    const key = await ctx.apiKeyStore.get();
    return q.reveal === true && key ? { set: true, key } : { set: key !== null };
  },

  rotateApiKey: async ({ action, key }, ctx) => {
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
      return { set: true };
    }
    return { set: true, key: await ctx.apiKeyStore.rotate() };
  },
} satisfies Partial<AdminHandlers>;
