/**
 * The one search code path behind the MCP `search` tool, `retrieve_context` and
 * `semantic_search`: the contract's parse applies the mount's defaults once, the engine searches,
 * and the result is cut to what a model reads, text and structured alike.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { parseSearchRequest, type SearchDefaults } from '../../common/requests.js';
import type { EngineApi } from '../api.js';
import { argumentsOf } from '../errors.js';
import type { MountConfig } from './mount-config.js';
import { modelSearchResult } from './model-results.js';
import { renderSearch } from './render.js';
import { success } from './results.js';

/** The search defaults a mount captured from settings. */
export function mountSearchDefaults(mount: Pick<MountConfig, 'defaultMode' | 'defaultTopK'>): SearchDefaults {
  return { mode: mount.defaultMode, topK: mount.defaultTopK };
}

export async function searchTool(engine: EngineApi, args: unknown, defaults: SearchDefaults): Promise<CallToolResult> {
  const req = argumentsOf(parseSearchRequest(args, defaults));
  const result = modelSearchResult(await engine.search(req, defaults), req.max_chars);
  return success(result, renderSearch(result));
}
