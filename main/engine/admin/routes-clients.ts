/**
 * `GET /api/clients` (snippets; the real key only with `?reveal=1`, else a placeholder) and
 * `POST /api/clients/install` `{id, confirm: true}` (writes the real key).
 */
import { CairnError } from '../errors.js';
import { keyRequired } from '../web/request-guard.js';
import { KEY_PLACEHOLDER, clientConfigs, type ClientSetup } from '../client-config/configs.js';
import { installClient } from '../client-config/install.js';
import type { AdminContext } from './context.js';
import type { AdminHandlers } from './handlers.js';

async function setup(ctx: AdminContext, withKey: boolean): Promise<ClientSetup> {
  let key: string | null = null;
  if (keyRequired(ctx.engine.settings, ctx.loopbackOnly)) {
    key = withKey ? await ctx.apiKeyStore.get() : KEY_PLACEHOLDER;
    if (withKey && !key) {
      throw new CairnError('conflict', 'The API key is required but none is set.', {
        remedy: 'Generate an API key first.',
      });
    }
  }
  return {
    url: ctx.advertisedOrigin() + ctx.endpoint.mount.mountPath,
    key,
    stdioCommand: ctx.stdioCommand,
    dataDir: ctx.engine.dataDir,
    home: ctx.clientsHome,
    platform: ctx.platform,
    env: process.env,
  };
}

export const clientRoutes = {
  clients: async (q, ctx) => clientConfigs(await setup(ctx, q.reveal === true)),

  installClient: async (body, ctx) => {
    if (body.confirm !== true) {
      throw new CairnError(
        'invalid_argument',
        "Installing writes the client's config file: send confirm: true after the person agreed.",
        {
          details: { key: 'confirm' },
        },
      );
    }
    return installClient(body.id, await setup(ctx, true));
  },
} satisfies Partial<AdminHandlers>;
