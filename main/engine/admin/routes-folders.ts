/** Admin routes for choosing and looking into folders: the folder browser, file lists, folder options, the settings table. */
import { homedir } from 'node:os';
import type { UpdateFolderRequest } from '../../common/admin.js';
import type { ReadRequest } from '../../common/requests.js';
import { SETTINGS } from '../../common/settings.js';
import { CairnError } from '../errors.js';
import { json } from '../web/responses.js';
import { browseDirectory } from './browse.js';
import { jsonBody, type AdminContext } from './context.js';

type Handler = (req: Request, ctx: AdminContext) => Promise<Response>;

export const folderRoutes: Record<string, Handler> = {
  'GET /api/browse': async (req, ctx) => {
    const url = new URL(req.url);
    const folders = (await ctx.engine.folders()).map((f) => f.path);
    return json(
      200,
      await browseDirectory(url.searchParams.get('path'), {
        home: ctx.browseHome ?? homedir(),
        dataDir: ctx.engine.dataDir,
        folders,
      }),
    );
  },

  'GET /api/folders/files': async (req, ctx) => {
    const p = new URL(req.url).searchParams;
    const get = (k: string) => p.get(k) ?? undefined;
    return json(
      200,
      await ctx.engine.folderFiles({
        path: get('path') ?? '',
        show: get('show') as never,
        q: get('q'),
        offset: get('offset') as never,
        limit: get('limit') as never,
      }),
    );
  },

  'PATCH /api/folders': async (req, ctx) => {
    const body = await jsonBody<Partial<UpdateFolderRequest>>(req);
    if (typeof body.path !== 'string' || !body.path)
      throw new CairnError('invalid_argument', 'path must name an indexed folder', { details: { key: 'path' } });
    return json(
      200,
      await ctx.engine.updateFolder({
        path: body.path,
        ...(body.text_only !== undefined ? { text_only: body.text_only } : {}),
      }),
    );
  },

  // Exactly what the MCP read tool serves (the same contract and file door): nothing more for the admin token.
  'POST /api/read': async (req, ctx) => json(200, await ctx.engine.read(await jsonBody<ReadRequest>(req))),

  // The one settings table, so the workbench's editor is generated from it and cannot drift.
  'GET /api/settings/spec': async () => json(200, { settings: SETTINGS }),
};
