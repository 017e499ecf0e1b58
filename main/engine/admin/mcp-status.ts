/** `GET /api/mcp/status`: what is mounted, beside what is configured, so a pending restart shows. */
import { keyStorageNotice } from '../../common/api-key.js';
import type { McpStatus } from '../../common/status.js';
import type { SearchMode } from '../../common/search.js';
import { remountPending, toolNames } from '../mcp/mount-config.js';
import { SERVED_PROTOCOL_VERSIONS } from '../mcp/endpoint.js';
import { keyRequired } from '../web/request-guard.js';
import { securityWarnings } from '../web/security.js';
import type { AdminContext } from './context.js';
import { otherLoginUsers } from './local-users.js';

export async function mcpStatus(ctx: AdminContext): Promise<McpStatus> {
  const s = ctx.engine.settings;
  const mount = ctx.endpoint.mount;
  const hosts = s.get<string[]>('mcp.allowed_hosts');
  const origins = s.get<string[]>('mcp.allowed_origins');
  const dns = s.get<boolean>('mcp.enable_dns_rebinding_protection');
  const configMode = s.get<SearchMode>('mcp.default_mode');
  const configTopK = s.get<number>('mcp.default_top_k');
  const enabled = s.get<boolean>('mcp.enabled');
  const required = keyRequired(s, ctx.loopbackOnly);
  const others = await (ctx.otherLoginUsers ?? otherLoginUsers)();
  const keyOff = !required && others.length > 0;
  return {
    enabled,
    running: enabled,
    advertised_url: ctx.advertisedOrigin() + mount.mountPath,
    in_process_url: ctx.inProcessOrigin() + mount.mountPath,
    transport: {
      stateless: mount.stateless,
      json_response: mount.jsonResponse,
      protocol_versions: [...SERVED_PROTOCOL_VERSIONS],
      sessions: ctx.endpoint.sessionCount,
    },
    security: {
      dns_rebinding_protection: dns,
      allowed_hosts: hosts,
      allowed_origins: origins,
      require_api_key: required,
      api_key_set: (await ctx.apiKeyStore.get()) !== null,
      loopback_only: ctx.loopbackOnly,
      other_login_users: others,
      key_off_with_other_users: keyOff,
      key_storage: { kind: ctx.apiKeyStore.storage ?? null, notice: keyStorageNotice(ctx.apiKeyStore.storage) },
      // Kept apart from the configuration warnings: the workbench shows its own notice with the fix.
      warnings: securityWarnings(hosts, origins, dns, ctx.loopbackOnly),
    },
    toolset: mount.toolset,
    tools: toolNames(mount),
    default_mode: mount.defaultMode,
    default_top_k: mount.defaultTopK,
    config_default_mode: configMode,
    config_default_top_k: configTopK,
    defaults_restart_pending: configMode !== mount.defaultMode || configTopK !== mount.defaultTopK,
    remount_pending: remountPending(mount, s),
    stdio_command: ctx.stdioCommand,
    uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
    requests: { ...ctx.counters },
  };
}
