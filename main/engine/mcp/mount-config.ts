/**
 * What an MCP server captures when it is mounted. Search defaults, toolset and transport are
 * fixed at mount time so an agent sees a stable contract for the whole session; a settings
 * change shows as "restart pending" until the server is remounted.
 */
import type { SearchMode } from '../../common/search.js';
import type { SettingsApi } from '../api.js';

export interface MountConfig {
  defaultMode: SearchMode;
  defaultTopK: number;
  toolset: 'agent' | 'full';
  generationUrl: string;
  generationModel: string;
  stateless: boolean;
  jsonResponse: boolean;
  mountPath: string;
  mountedAt: number;
}

export function captureMountConfig(settings: SettingsApi): MountConfig {
  return {
    defaultMode: settings.get<SearchMode>('mcp.default_mode'),
    defaultTopK: settings.get<number>('mcp.default_top_k'),
    toolset: settings.get<'agent' | 'full'>('mcp.toolset'),
    generationUrl: settings.get<string>('mcp.generation_url'),
    generationModel: settings.get<string>('mcp.generation_model'),
    stateless: settings.get<boolean>('mcp.stateless_http'),
    jsonResponse: settings.get<boolean>('mcp.json_response'),
    mountPath: settings.get<string>('mcp.mount_path'),
    mountedAt: Date.now(),
  };
}

/** Tool names a mount exposes, in the order they are registered. */
export function toolNames(config: Pick<MountConfig, 'toolset' | 'generationUrl'>): string[] {
  const names = ['search', 'read'];
  if (config.toolset === 'full') {
    names.push('grep', 'index_status', 'index_update', 'index_drop', 'server_status', 'retrieve_context', 'semantic_search');
  }
  if (config.generationUrl) names.push('answer');
  return names;
}
