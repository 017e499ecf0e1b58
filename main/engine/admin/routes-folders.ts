/** Admin routes for choosing and looking into folders: the folder browser, file lists, folder options, the settings table. */
import { homedir } from 'node:os';
import { SETTINGS } from '../../common/settings.js';
import { CairnError } from '../errors.js';
import { browseDirectory } from './browse.js';
import type { AdminHandlers } from './handlers.js';

export const folderRoutes = {
  browse: async (q, ctx) => {
    const folders = (await ctx.engine.folders()).map((f) => f.path);
    return browseDirectory(q.path ?? null, { home: ctx.browseHome ?? homedir(), dataDir: ctx.engine.dataDir, folders });
  },

  // Read and checked by the route's schema; the engine's file-list contract applies the defaults.
  folderFiles: async (q, ctx) => ctx.engine.folderFiles(q),

  updateFolder: async (body, ctx) => {
    if (!body.path)
      throw new CairnError('invalid_argument', 'path must name an indexed folder', { details: { key: 'path' } });
    return ctx.engine.updateFolder({
      path: body.path,
      ...(body.text_only !== undefined ? { text_only: body.text_only } : {}),
    });
  },

  // Exactly what the MCP read tool serves (the same contract and file door): nothing more for the admin token.
  read: async (body, ctx) => ctx.engine.read(body),

  // The one settings table, so the workbench's editor is generated from it and cannot drift.
  settingsSpec: async () => ({ settings: [...SETTINGS] }),
} satisfies Partial<AdminHandlers>;
