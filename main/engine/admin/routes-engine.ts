/** Admin routes over the engine: settings, folders, jobs, status and the search playground. */
import type { ValidationIssue } from '../../common/admin.js';
import { TOOL_DEFAULTS } from '../../common/tool-requests.js';
import { CairnError } from '../errors.js';
import { mountSearchDefaults } from '../mcp/search-call.js';
import type { AdminContext } from './context.js';
import type { AdminHandlers } from './handlers.js';
import { guardIssues } from './settings-guard.js';

function needString(value: string, key: string): string {
  if (value.trim() === '') {
    throw new CairnError('invalid_argument', `${key} must be a non-empty string`, { details: { key } });
  }
  return value;
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

export const engineRoutes = {
  engineStatus: async (_in, ctx) => ctx.engine.status(),

  settings: async (_in, ctx) => ({ values: ctx.engine.settings.all() }),

  updateSettings: async (body, ctx, req) => {
    const issues = await allIssues(req, ctx, body.values);
    const hard = issues.filter((i) => !i.needs_confirmation);
    if (hard.length > 0) throw new CairnError('config_invalid', hard[0].message, { details: { issues } });
    if (issues.length > 0 && body.confirm !== true) {
      throw new CairnError('conflict', issues[0].message, {
        remedy: 'Confirm to save anyway (send "confirm": true).',
        details: { issues, needs_confirmation: true },
      });
    }
    ctx.engine.settings.set(body.values);
    return { values: ctx.engine.settings.all() };
  },

  validateSettings: async (body, ctx, req) => {
    const issues = await allIssues(req, ctx, body.values);
    return { ok: issues.length === 0, issues };
  },

  folders: async (_in, ctx) => ctx.engine.folders(),

  addFolder: async (spec, ctx) => {
    needString(spec.path, 'path');
    return ctx.engine.addFolder(spec);
  },

  removeFolder: async ({ path }, ctx) => {
    await ctx.engine.removeFolder(needString(path, 'path'));
    return { removed: path };
  },

  indexFolder: async (body, ctx) =>
    ctx.engine.indexFolder(needString(body.path, 'path'), body.kind ?? TOOL_DEFAULTS.indexKind),

  jobs: async (_in, ctx) => ctx.engine.jobs(),

  jobAction: async (body, ctx) => ctx.engine.jobAction(needString(body.id, 'id'), body.action),

  setPaused: async (body, ctx) => {
    ctx.engine.setPaused(body.paused);
    return { paused: (await ctx.engine.status()).paused };
  },

  // Same lookup as the engine's: models shipped with the app, then the data folder.
  models: async (_in, ctx) => {
    // Loaded on first use: the registry brings the built-in model's ONNX writer, which `cairn serve` need not wait for.
    const { listModels } = await import('../embed/registry.js');
    return listModels(ctx.engine.dataDir, { bundledModelsDir: process.env.CAIRN_MODELS_DIR || undefined });
  },

  // Answers at once: a download can take minutes; the workbench follows it in GET /api/status.
  loadModel: async (_in, ctx) => {
    ctx.engine.prepareModel();
    return (await ctx.engine.status()).model;
  },

  switchModel: async ({ model }, ctx) => {
    const id = needString(model, 'model').trim();
    const issues = ctx.engine.settings.validate({ 'embedding.model': id });
    if (issues.length > 0) throw new CairnError('invalid_argument', issues[0].message, { details: { issues } });
    return ctx.engine.switchModel(id);
  },

  // Checked by the same contract as the MCP search tool, with the mounted server's defaults.
  search: async (body, ctx) => ctx.engine.search(body, mountSearchDefaults(ctx.endpoint.mount)),
} satisfies Partial<AdminHandlers>;
