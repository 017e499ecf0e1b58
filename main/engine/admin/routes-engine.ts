/** Admin routes over the engine: settings, folders, jobs, status and the search playground. */
import type { FolderSpec } from '../../common/settings.js';
import type {
  IndexFolderRequest,
  JobActionRequest,
  RemoveFolderRequest,
  SetPausedRequest,
  SetPausedResponse,
  SettingsPatch,
  ValidateResponse,
  ValidationIssue,
} from '../../common/admin.js';
import type { SearchRequest } from '../../common/requests.js';
import { CairnError } from '../errors.js';
import { json, typedError } from '../web/responses.js';
import { mountSearchDefaults } from '../mcp/search-call.js';
import { jsonBody, type AdminContext } from './context.js';
import { guardIssues } from './settings-guard.js';

type Handler = (req: Request, ctx: AdminContext) => Promise<Response>;

function needString(value: unknown, key: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CairnError('invalid_argument', `${key} must be a non-empty string`, { details: { key } });
  }
  return value;
}

function valuesOf(body: Partial<SettingsPatch>): Record<string, unknown> {
  if (typeof body.values !== 'object' || body.values === null || Array.isArray(body.values)) {
    throw new CairnError('invalid_argument', 'The body must be {"values": {"<key>": <value>, ...}}', {
      details: { key: 'values' },
    });
  }
  return body.values;
}

/** The settings table's rules first; what the save would do to this server's users only on valid values. */
async function allIssues(req: Request, ctx: AdminContext, values: Record<string, unknown>): Promise<ValidationIssue[]> {
  const issues = ctx.engine.settings.validate(values);
  if (issues.length > 0) return issues;
  if ('embedding.model' in values && values['embedding.model'] !== ctx.engine.settings.get('embedding.model')) {
    // A model that cannot load must never become the configured one: the switch checks it first.
    return [
      {
        key: 'embedding.model',
        rule: 'switch_first',
        message:
          'Not saved: the embedding model is changed with "Change model" in the workbench (POST /api/model/switch), which downloads and checks the model first, so one that cannot load never becomes the configured model.',
      },
    ];
  }
  return guardIssues(values, {
    current: ctx.engine.settings.all(),
    listenOrigin: ctx.inProcessOrigin(),
    advertisedOrigin: ctx.advertisedOrigin(),
    requestHost: req.headers.get('host'),
  });
}

export const engineRoutes: Record<string, Handler> = {
  'GET /api/status': async (_req, ctx) => json(200, await ctx.engine.status()),

  'GET /api/settings': async (_req, ctx) => json(200, { values: ctx.engine.settings.all() }),

  'PATCH /api/settings': async (req, ctx) => {
    const body = await jsonBody<Partial<SettingsPatch>>(req);
    const values = valuesOf(body);
    const issues = await allIssues(req, ctx, values);
    const hard = issues.filter((i) => !i.needs_confirmation);
    if (hard.length > 0) return typedError('config_invalid', hard[0].message, { details: { issues } });
    if (issues.length > 0 && body.confirm !== true) {
      return typedError('conflict', issues[0].message, {
        remedy: 'Confirm to save anyway (send "confirm": true).',
        details: { issues, needs_confirmation: true },
      });
    }
    ctx.engine.settings.set(values);
    return json(200, { values: ctx.engine.settings.all() });
  },

  'POST /api/settings/validate': async (req, ctx) => {
    const issues = await allIssues(req, ctx, valuesOf(await jsonBody<Partial<SettingsPatch>>(req)));
    return json(200, { ok: issues.length === 0, issues } satisfies ValidateResponse);
  },

  'GET /api/folders': async (_req, ctx) => json(200, await ctx.engine.folders()),

  'POST /api/folders': async (req, ctx) => {
    const spec = await jsonBody<FolderSpec>(req);
    needString(spec.path, 'path');
    return json(201, await ctx.engine.addFolder(spec));
  },

  'DELETE /api/folders': async (req, ctx) => {
    const { path } = await jsonBody<Partial<RemoveFolderRequest>>(req);
    await ctx.engine.removeFolder(needString(path, 'path'));
    return json(200, { removed: path });
  },

  'POST /api/folders/index': async (req, ctx) => {
    const body = await jsonBody<Partial<IndexFolderRequest> & { kind?: string }>(req);
    const kind = body.kind ?? 'update';
    if (kind !== 'update' && kind !== 'rebuild' && kind !== 'create') {
      throw new CairnError('invalid_argument', 'kind must be update, rebuild or create', { details: { key: 'kind' } });
    }
    return json(202, await ctx.engine.indexFolder(needString(body.path, 'path'), kind));
  },

  'GET /api/jobs': async (_req, ctx) => json(200, ctx.engine.jobs()),

  'POST /api/jobs/action': async (req, ctx) => {
    const body = await jsonBody<Partial<JobActionRequest>>(req);
    if (body.action !== 'pause' && body.action !== 'resume' && body.action !== 'cancel') {
      throw new CairnError('invalid_argument', 'action must be pause, resume or cancel', {
        details: { key: 'action' },
      });
    }
    return json(200, ctx.engine.jobAction(needString(body.id, 'id'), body.action));
  },

  'POST /api/jobs/paused': async (req, ctx) => {
    const body = await jsonBody<Partial<SetPausedRequest>>(req);
    if (typeof body.paused !== 'boolean')
      throw new CairnError('invalid_argument', 'paused must be true or false', { details: { key: 'paused' } });
    ctx.engine.setPaused(body.paused);
    return json(200, { paused: (await ctx.engine.status()).paused } satisfies SetPausedResponse);
  },

  // Same lookup as the engine's: models shipped with the app, then the data folder.
  'GET /api/models': async (_req, ctx) => {
    // Loaded on first use: the registry brings the built-in model's ONNX writer, which `cairn serve` need not wait for.
    const { listModels } = await import('../embed/registry.js');
    return json(200, listModels(ctx.engine.dataDir, { bundledModelsDir: process.env.CAIRN_MODELS_DIR || undefined }));
  },

  // Answers at once: a download can take minutes; the workbench follows it in GET /api/status.
  'POST /api/model/load': async (_req, ctx) => {
    ctx.engine.prepareModel();
    return json(202, (await ctx.engine.status()).model);
  },

  'POST /api/model/switch': async (req, ctx) => {
    const { model } = await jsonBody<{ model?: unknown }>(req);
    const id = needString(model, 'model').trim();
    const issues = ctx.engine.settings.validate({ 'embedding.model': id });
    if (issues.length > 0) return typedError('invalid_argument', issues[0].message, { details: { issues } });
    return json(202, ctx.engine.switchModel(id));
  },

  // Checked by the same contract as the MCP search tool, with the mounted server's defaults.
  'POST /api/search': async (req, ctx) => {
    const body = await jsonBody<SearchRequest>(req);
    return json(200, await ctx.engine.search(body, mountSearchDefaults(ctx.endpoint.mount)));
  },
};
