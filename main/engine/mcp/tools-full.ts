/**
 * The `full` toolset: exhaustive grep, index management and status, plus `retrieve_context` and
 * `semantic_search` for clients written against those names. Index tools act only on folders the
 * person already added: an agent can refresh an index but never widen what Cairn reads.
 */
import { isAbsolute, resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import type { EngineApi } from '../api.js';
import { CairnError } from '../errors.js';
import { parseGrepRequest, DEFAULTS } from '../../common/requests.js';
import {
  TOOL_DEFAULTS,
  parseEmptyRequest,
  parseIndexDropRequest,
  parseIndexUpdateRequest,
  parseRetrieveContextRequest,
  parseSemanticSearchRequest,
} from '../../common/tool-requests.js';
import { argumentsOf } from '../errors.js';
import { modelGrepResult } from './model-results.js';
import { CONTENT_NOTE, renderGrep, renderJson } from './render.js';
import { success } from './results.js';
import { guarded, type ToolContext } from './tool-context.js';
import { toolNames } from './mount-config.js';
import { mountSearchDefaults, searchTool } from './search-call.js';
import {
  EMPTY_INPUT,
  GREP_INPUT,
  GREP_OUTPUT,
  HITS_OUTPUT,
  INDEX_DROP_INPUT,
  INDEX_DROP_OUTPUT,
  INDEX_STATUS_OUTPUT,
  INDEX_UPDATE_INPUT,
  JOB_OUTPUT,
  RETRIEVE_CONTEXT_INPUT,
  SEMANTIC_SEARCH_INPUT,
  SERVER_STATUS_OUTPUT,
} from './schemas.js';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/** The configured folder equal to `path`, or `path_outside_folders`. */
async function configuredFolder(engine: EngineApi, path: string): Promise<string> {
  const want = isAbsolute(path) ? resolve(path) : null;
  const found = want && (await engine.folders()).find((f) => resolve(f.path) === want);
  if (!found) {
    throw new CairnError('path_outside_folders', `${path} is not an indexed folder`, {
      remedy: 'Use index_status to list the folders; new folders are added by the person in Cairn.',
      details: { path },
    });
  }
  return found.path;
}

export function registerFullTools(server: McpServer, ctx: ToolContext): void {
  const { engine } = ctx;
  server.registerTool(
    'grep',
    {
      title: 'Exhaustive literal or regex search',
      description: `Find every line matching an exact string (or a regular expression with regex: true) in the indexed folders. Use it when you know the exact text or identifier; use search for meaning. Bounded by max_matches and max_chars (matches left out are counted); no shell is involved. ${CONTENT_NOTE}`,
      inputSchema: GREP_INPUT,
      outputSchema: GREP_OUTPUT,
      annotations: readOnly,
    },
    (args) =>
      guarded(ctx, async () => {
        const req = argumentsOf(parseGrepRequest(args));
        const result = modelGrepResult(await engine.grep(req), req.max_chars);
        return success(result, renderGrep(result));
      }),
  );

  server.registerTool(
    'index_status',
    {
      title: 'Index status',
      description:
        'State, counts and freshness of every indexed folder, and the indexing jobs (poll a job started by index_update here).',
      inputSchema: EMPTY_INPUT,
      outputSchema: INDEX_STATUS_OUTPUT,
      annotations: readOnly,
    },
    (args) =>
      guarded(ctx, async () => {
        argumentsOf(parseEmptyRequest(args));
        const folders = await engine.folders();
        const jobs = engine
          .jobs()
          .map((j) => ({ job_id: j.id, state: j.state, kind: j.kind, folder: j.folder, progress: j.progress }));
        const result = { folders, jobs };
        return success(result, renderJson('Index status:', result, DEFAULTS.maxChars));
      }),
  );

  server.registerTool(
    'index_update',
    {
      title: "Update a folder's index",
      description:
        'Create, update (apply changes) or rebuild the index of a folder the person already added. Returns a job id; poll index_status.',
      inputSchema: INDEX_UPDATE_INPUT,
      outputSchema: JOB_OUTPUT,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, async () => {
        const req = argumentsOf(parseIndexUpdateRequest(args));
        const folder = await configuredFolder(engine, req.path);
        const job = await engine.indexFolder(folder, req.kind);
        const result = { job_id: job.id, state: job.state, kind: job.kind, folder: job.folder };
        return success(result, `Started ${job.kind} of ${job.folder}: job ${job.id} (${job.state}).`);
      }),
  );

  server.registerTool(
    'index_drop',
    {
      title: "Drop a folder's index",
      description:
        'Delete the index of an indexed folder (the files are untouched). Requires confirm: true. Search will not find the folder until it is indexed again.',
      inputSchema: INDEX_DROP_INPUT,
      outputSchema: INDEX_DROP_OUTPUT,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, async () => {
        const req = argumentsOf(parseIndexDropRequest(args));
        const folder = await configuredFolder(engine, req.path);
        await engine.dropIndex(folder);
        return success({ dropped: folder }, `Dropped the index of ${folder}.`);
      }),
  );

  server.registerTool(
    'server_status',
    {
      title: 'Server status',
      description: 'Cairn version, toolset, search defaults, model state and index totals.',
      inputSchema: EMPTY_INPUT,
      outputSchema: SERVER_STATUS_OUTPUT,
      annotations: readOnly,
    },
    (args) =>
      guarded(ctx, async () => {
        argumentsOf(parseEmptyRequest(args));
        const s = await engine.status();
        const result = {
          version: s.version,
          toolset: ctx.mount.toolset,
          tools: toolNames(ctx.mount),
          default_mode: ctx.mount.defaultMode,
          default_top_k: ctx.mount.defaultTopK,
          model: { id: s.model.id, state: s.model.state },
          contract_mismatch: s.contract_mismatch,
          paused: s.paused,
          totals: s.totals,
          folders: s.folders.map((f) => ({
            path: f.path,
            state: f.state,
            files: f.files,
            chunks: f.chunks,
            freshness: f.freshness,
          })),
          ...(ctx.serverStatus ? await ctx.serverStatus() : {}),
        };
        return success(result, renderJson('Cairn server status:', result, DEFAULTS.maxChars));
      }),
  );

  server.registerTool(
    'retrieve_context',
    {
      title: 'Retrieve context (hybrid)',
      description: `Hybrid (BM25 + vectors, fused with RRF) retrieval of passages for a query. filters.source: an indexed folder or a path glob; filters.tags: extensions or kinds. Same engine as search. ${CONTENT_NOTE}`,
      inputSchema: RETRIEVE_CONTEXT_INPUT,
      outputSchema: HITS_OUTPUT,
      annotations: readOnly,
    },
    (args) =>
      guarded(ctx, async () => {
        const req = argumentsOf(parseRetrieveContextRequest(args));
        const source = req.filters?.source;
        return searchTool(
          engine,
          {
            query: req.query,
            mode: 'hybrid',
            top_k: req.top_k,
            folders: source && isAbsolute(source) ? [source] : undefined,
            globs: source && !isAbsolute(source) ? [source] : undefined,
            file_types: req.filters?.tags,
          },
          mountSearchDefaults(ctx.mount),
        );
      }),
  );

  server.registerTool(
    'semantic_search',
    {
      title: 'Semantic search (vectors only)',
      description: `Vector-only search by meaning; hits below the similarity threshold (default ${TOOL_DEFAULTS.semanticThreshold}) are dropped. Prefer search, which also matches words. ${CONTENT_NOTE}`,
      inputSchema: SEMANTIC_SEARCH_INPUT,
      outputSchema: HITS_OUTPUT,
      annotations: readOnly,
    },
    (args) =>
      guarded(ctx, async () => {
        const req = argumentsOf(parseSemanticSearchRequest(args));
        return searchTool(
          engine,
          { query: req.vector_query, mode: 'vector', top_k: req.top_k, min_score: req.threshold },
          mountSearchDefaults(ctx.mount),
        );
      }),
  );
}
