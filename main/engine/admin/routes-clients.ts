/**
 * `GET /api/clients` (snippets; the real key only with `?reveal=1`, else a placeholder) and
 * `POST /api/clients/install` `{id, confirm: true}` (writes the real key).
 */
import { CairnError } from '../errors.js';
import { json } from '../web/responses.js';
import { keyRequired } from '../web/request-guard.js';
import { KEY_PLACEHOLDER, clientConfigs, type ClientSetup } from '../client-config/configs.js';
import { installClient } from '../client-config/install.js';
import { jsonBody, type AdminContext } from './context.js';

type Handler = (req: Request, ctx: AdminContext) => Promise<Response>;

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

export const clientRoutes: Record<string, Handler> = {
  'GET /api/clients': async (req, ctx) => {
    const reveal = new URL(req.url).searchParams.get('reveal') === '1';
    return json(200, clientConfigs(await setup(ctx, reveal)));
  },

  'POST /api/clients/install': async (req, ctx) => {
    const body = await jsonBody<{ id?: unknown; confirm?: unknown }>(req);
    if (typeof body.id !== 'string')
      throw new CairnError('invalid_argument', 'id must name a client', { details: { key: 'id' } });
    if (body.confirm !== true) {
      throw new CairnError(
        'invalid_argument',
        "Installing writes the client's config file: send confirm: true after the person agreed.",
        {
          details: { key: 'confirm' },
        },
      );
    }
    return json(200, await installClient(body.id, await setup(ctx, true)));
  },
};
