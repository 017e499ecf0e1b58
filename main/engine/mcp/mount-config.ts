/**
 * What an MCP server captures when it is mounted. Search defaults, toolset and transport are
 * fixed at mount time so an agent sees a stable contract for the whole session; a settings
 * change shows as "restart pending" until the server is remounted.
 */
import type { SearchMode } from '../../common/search.js';
import type { SettingsApi } from '../api.js';
import { SETTINGS } from '../../common/settings.js';

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

/** The mount field each `applies: 'remount'` setting is captured in. */
const MOUNTED_AS: Record<string, keyof MountConfig> = {
  'mcp.default_mode': 'defaultMode',
  'mcp.default_top_k': 'defaultTopK',
  'mcp.toolset': 'toolset',
  'mcp.generation_url': 'generationUrl',
  'mcp.generation_model': 'generationModel',
  'mcp.stateless_http': 'stateless',
  'mcp.json_response': 'jsonResponse',
  'mcp.mount_path': 'mountPath',
};

/** Every remount setting whose saved value differs from what the mounted server captured. */
export function remountPending(
  config: MountConfig,
  settings: SettingsApi,
): { key: string; mounted: unknown; configured: unknown }[] {
  const out: { key: string; mounted: unknown; configured: unknown }[] = [];
  for (const spec of SETTINGS) {
    if (spec.applies !== 'remount') continue;
    const field = MOUNTED_AS[spec.key];
    if (!field) throw new Error(`${spec.key} applies on remount but the mount does not capture it`);
    const configured = settings.get(spec.key);
    if (JSON.stringify(configured) !== JSON.stringify(config[field]))
      out.push({ key: spec.key, mounted: config[field], configured });
  }
  return out;
}

/** Tool names a mount exposes, in the order they are registered. */
export function toolNames(config: Pick<MountConfig, 'toolset' | 'generationUrl'>): string[] {
  const names = ['search', 'read'];
  if (config.toolset === 'full') {
    names.push(
      'grep',
      'index_status',
      'index_update',
      'index_drop',
      'server_status',
      'retrieve_context',
      'semantic_search',
    );
  }
  if (config.generationUrl) names.push('answer');
  return names;
}
