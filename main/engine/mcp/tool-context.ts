/** What every tool handler gets: the engine, the mount's captured config, and a result counter. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { EngineApi } from '../api.js';
import type { MountConfig } from './mount-config.js';
import { failure } from './results.js';

export interface ToolContext {
  engine: EngineApi;
  mount: MountConfig;
  /** Called once per tool call with whether it failed (status counters). */
  onResult?: (isError: boolean) => void;
  /** Extra detail for `server_status` (the HTTP host adds URLs and counters). */
  serverStatus?: () => Promise<Record<string, unknown>>;
}

/** Runs a handler so that any throw becomes a typed `{error}` result, never a partial one. */
export async function guarded(ctx: ToolContext, fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = await fn();
  } catch (err) {
    result = failure(err);
  }
  ctx.onResult?.(result.isError === true);
  return result;
}
