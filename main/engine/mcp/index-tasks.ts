/**
 * `index_update` as a task of the Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for
 * 2026-07-28 clients that declare the extension on the request: the call answers at once with a
 * task handle (`resultType: "task"`), `tasks/get` reports the indexing job's progress in
 * `statusMessage` and, once it ends, the tool result; `tasks/cancel` cancels the job. A client
 * that does not declare the extension (and every 2025-era client) gets the job id as before and
 * polls `index_status`. The task is the engine's job seen through a handle: nothing runs twice,
 * and the handle is bound to the credentials that created it (another client learns nothing from
 * a guessed or leaked id).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ProtocolError, type McpServer } from '@modelcontextprotocol/server';
import type { JobInfo } from '../../common/status.js';
import type { EngineApi } from '../api.js';
import { toErrorBody } from '../errors.js';
import { renderError } from './render.js';
import { TASKS_EXTENSION } from './server-identity.js';

/** How long a handle is kept after it was created (the spec's `ttlMs`). */
export const TASK_TTL_MS = 60 * 60 * 1000;
const POLL_INTERVAL_MS = 1000;
/** Handles kept at most; past this the oldest go (their jobs still show in index_status). */
const MAX_TASKS = 512;
const INVALID_PARAMS = -32602;
const MISSING_CLIENT_CAPABILITY = -32021;

interface TaskRecord {
  jobId: string;
  owner: string;
  createdAt: number;
}

/** The handles of one mounted endpoint; shared by its per-request servers. */
export class TaskRegistry {
  private readonly tasks = new Map<string, TaskRecord>();

  constructor(private readonly now: () => number = Date.now) {}

  create(jobId: string, owner: string): { taskId: string; record: TaskRecord } {
    this.expire();
    while (this.tasks.size >= MAX_TASKS) this.tasks.delete(this.tasks.keys().next().value!);
    const taskId = randomBytes(24).toString('base64url');
    const record = { jobId, owner, createdAt: this.now() };
    this.tasks.set(taskId, record);
    return { taskId, record };
  }

  /** The handle when it exists, has not expired and belongs to `owner`. */
  find(taskId: string, owner: string): TaskRecord | undefined {
    this.expire();
    const record = this.tasks.get(taskId);
    return record && record.owner === owner ? record : undefined;
  }

  private expire(): void {
    const cutoff = this.now() - TASK_TTL_MS;
    for (const [id, r] of this.tasks) if (r.createdAt < cutoff) this.tasks.delete(id);
  }
}

type Envelope = Record<string, unknown> | undefined;
interface HandlerContext {
  mcpReq?: { envelope?: Envelope };
}

function declaresTasks(ctx: HandlerContext): boolean {
  const caps = ctx.mcpReq?.envelope?.['io.modelcontextprotocol/clientCapabilities'] as
    { extensions?: Record<string, unknown> } | undefined;
  return typeof caps?.extensions?.[TASKS_EXTENSION] === 'object';
}

function progressMessage(job: JobInfo): string {
  const p = job.progress;
  if (job.state === 'queued') return `Queued: ${job.kind} of ${job.folder}.`;
  if (job.state === 'paused')
    return `Paused (${p.phase}): ${p.files_done}/${p.files_total} files, ${p.chunks_done}/${p.chunks_total} chunks.`;
  return `${job.kind} of ${job.folder}, ${p.phase}: ${p.files_done}/${p.files_total} files, ${p.chunks_done}/${p.chunks_total} chunks${p.eta_seconds === null ? '' : `, about ${Math.ceil(p.eta_seconds)} s left`}.`;
}

/** The task as `tasks/get` and the creation answer show it. */
function taskView(taskId: string, record: TaskRecord, job: JobInfo | undefined): Record<string, unknown> {
  const base = {
    taskId,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: job?.finished_at ?? new Date().toISOString(),
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
  if (!job) {
    // The engine no longer knows the job (e.g. restarted): a JSON-RPC-level fault of the task.
    return {
      ...base,
      status: 'failed',
      statusMessage: 'The indexing job is gone (the engine restarted); run index_update again.',
      error: { code: -32603, message: 'indexing job not found' },
    };
  }
  const summary = {
    job_id: job.id,
    state: job.state,
    kind: job.kind,
    folder: job.folder,
    progress: job.progress,
    errors: job.errors,
  };
  switch (job.state) {
    case 'queued':
    case 'running':
    case 'paused':
      return { ...base, status: 'working', statusMessage: progressMessage(job) };
    case 'cancelled':
      return { ...base, status: 'cancelled', statusMessage: `The ${job.kind} of ${job.folder} was cancelled.` };
    case 'done': {
      const text = `Finished ${job.kind} of ${job.folder}: ${job.progress.files_done} files, ${job.progress.chunks_done} chunks${job.errors ? `, ${job.errors} files skipped with errors (see index_status)` : ''}.`;
      return {
        ...base,
        status: 'completed',
        statusMessage: text,
        result: { content: [{ type: 'text', text }], structuredContent: { result: summary } },
      };
    }
    case 'failed': {
      // A job that failed is a tool-level error (completed, isError), not a JSON-RPC fault.
      const error = job.error ?? toErrorBody(new Error(`the ${job.kind} of ${job.folder} failed`));
      return {
        ...base,
        status: 'completed',
        statusMessage: error.message,
        result: { isError: true, content: [{ type: 'text', text: renderError(error) }], structuredContent: { error } },
      };
    }
  }
}

type RequestHandler = (
  request: { params: Record<string, unknown> },
  ctx: HandlerContext,
) => Promise<Record<string, unknown>>;
interface LowLevel {
  _requestHandlers: Map<string, RequestHandler>;
  setRequestHandler(method: string, handler: RequestHandler): void;
  /** With schemas the handler gets the validated params, not the request. */
  setRequestHandler(
    method: string,
    schemas: unknown,
    handler: (params: { taskId: string }, ctx: HandlerContext) => Promise<Record<string, unknown>>,
  ): void;
  registerCapabilities(capabilities: Record<string, unknown>): void;
}

/**
 * Serves `index_update` as a task, plus `tasks/get` and `tasks/cancel`, on a 2026-07-28 server
 * whose toolset has `index_update`. Call after the tools are registered, before connecting.
 * `owner` identifies the caller (remote address and credentials) the handles are bound to.
 */
export function serveIndexTasks(server: McpServer, engine: EngineApi, tasks: TaskRegistry, owner: string): void {
  // The SDK's own handler map: tools/call is wrapped, not replaced, so every other call (and
  // index_update for a client without the extension) goes through the SDK exactly as before.
  // Private in the SDK's types; test/mcp/index-tasks.test.ts shows when a change breaks it.
  const low = server.server as unknown as LowLevel;
  const callTool = low._requestHandlers.get('tools/call');
  if (!callTool) return;
  low.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  low.setRequestHandler('tools/call', async (request, ctx) => {
    const result = await callTool(request, ctx);
    if (request.params.name !== 'index_update' || !declaresTasks(ctx) || result.isError === true) return result;
    const job = (result.structuredContent as { result?: { job_id?: string } } | undefined)?.result;
    if (!job?.job_id) return result;
    const { taskId, record } = tasks.create(job.job_id, owner);
    return { resultType: 'task', ...taskView(taskId, record, engine.job(job.job_id)) };
  });
  const lookUp = (params: { taskId: string }, ctx: HandlerContext) => {
    if (!declaresTasks(ctx)) {
      throw new ProtocolError(MISSING_CLIENT_CAPABILITY, 'Missing required client capability', {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    }
    const record = tasks.find(params.taskId, owner);
    if (!record)
      throw new ProtocolError(
        INVALID_PARAMS,
        'Failed to retrieve task: Task not found (unknown, expired, or opened with other credentials)',
      );
    return record;
  };
  const taskParams = { params: z.looseObject({ taskId: z.string().min(1).max(200) }) };
  low.setRequestHandler('tasks/get', taskParams, async (params, ctx) => {
    const record = lookUp(params, ctx);
    return { resultType: 'complete', ...taskView(params.taskId, record, engine.job(record.jobId)) };
  });
  low.setRequestHandler('tasks/cancel', taskParams, async (params, ctx) => {
    const record = lookUp(params, ctx);
    const job = engine.job(record.jobId);
    // Cooperative, as the spec allows: a job that already ended stays as it ended.
    if (job && (job.state === 'queued' || job.state === 'running' || job.state === 'paused'))
      engine.jobAction(job.id, 'cancel');
    return { resultType: 'complete' };
  });
}
