/**
 * What a settings save would do to the people and programs using this server, checked before it
 * is written: a Host allowlist that would refuse the address the CLI, the probe and the MCP clients
 * dial (or the address this page is open at) is refused; a new bind address or port, which moves
 * the workbench and the CLI at the next start, needs an explicit confirmation; a port another
 * program holds is refused. The per-key and cross-setting rules of the settings table run first
 * (the store's validator); these need the running server, so they live here.
 */
import { createServer } from 'node:net';
import type { ValidationIssue } from '../../common/admin.js';
import { hostAllowed } from '../web/security.js';
import { isOwnHost } from '../web/own-address.js';

export interface GuardContext {
  /** Every setting as it is now. */
  current: Record<string, unknown>;
  /** `http://127.0.0.1:<port>`: where this process listens. */
  listenOrigin: string;
  /** The origin clients are told to dial now (follows the bound port while the setting is at its default). */
  advertisedOrigin: string;
  /** The Host header of the request that saves (the page's own address). */
  requestHost: string | null;
}

const LIST_KEYS = ['mcp.allowed_hosts', 'mcp.enable_dns_rebinding_protection', 'mcp.public_base_url'];

function hostOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return null;
  }
}

function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

function listIssues(values: Record<string, unknown>, ctx: GuardContext): ValidationIssue[] {
  if (!LIST_KEYS.some((k) => k in values)) return [];
  const merged = { ...ctx.current, ...values };
  if (merged['mcp.enable_dns_rebinding_protection'] !== true) return [];
  const hosts = merged['mcp.allowed_hosts'] as string[];
  const issues: ValidationIssue[] = [];
  const listen = hostOf(ctx.listenOrigin);
  const shown = hosts.length ? hosts.join(', ') : 'an empty list';
  if (listen && !hostAllowed(listen, hosts)) {
    issues.push({
      key: 'mcp.allowed_hosts',
      rule: 'lockout',
      message: `Not saved: ${shown} would refuse ${listen}, the address the CLI, the probe and your MCP clients use. Keep 127.0.0.1:* (or ${listen}) in the list.`,
    });
  }
  const advertised = hostOf(
    'mcp.public_base_url' in values ? String(values['mcp.public_base_url']) : ctx.advertisedOrigin,
  );
  if (advertised && advertised !== listen && !hostAllowed(advertised, hosts)) {
    issues.push({
      key: 'mcp.allowed_hosts',
      rule: 'lockout',
      message: `Not saved: clients are told to dial ${advertised} (mcp.public_base_url), which ${shown} would refuse. Add it to the list.`,
    });
  }
  const page = ctx.requestHost?.trim().toLowerCase() ?? null;
  if (page && !isOwnHost(page, ctx.listenOrigin) && !hostAllowed(page, hosts)) {
    issues.push({
      key: 'mcp.allowed_hosts',
      rule: 'lockout',
      message: `Not saved: this page is open at ${page}, which ${shown} would refuse. Keep ${page} in the list, or open the workbench at ${ctx.listenOrigin} first.`,
    });
  }
  return issues;
}

async function addressIssues(values: Record<string, unknown>, ctx: GuardContext): Promise<ValidationIssue[]> {
  if (!('mcp.host' in values) && !('mcp.port' in values)) return [];
  const merged = { ...ctx.current, ...values };
  const host = String(merged['mcp.host']);
  const port = Number(merged['mcp.port']);
  const listen = new URL(ctx.listenOrigin);
  const sameHost = host === listen.hostname || (host === 'localhost' && listen.hostname === '127.0.0.1');
  const samePort = port === Number(listen.port);
  if (sameHost && samePort) return [];
  if (port !== 0 && !samePort && !(await portFree(host, port))) {
    return [
      {
        key: 'mcp.port',
        rule: 'port_in_use',
        message: `Not saved: port ${port} on ${host} is in use by another program (or cannot be opened), so Cairn could not start there. Choose another port.`,
      },
    ];
  }
  const where =
    port === 0
      ? `a free port chosen at each start on ${host}`
      : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return [
    {
      key: 'mcp.port' in values ? 'mcp.port' : 'mcp.host',
      rule: 'moves_workbench',
      needs_confirmation: true,
      message: `After the next start, Cairn listens on ${where} instead of ${ctx.listenOrigin}: this page, the CLI and every MCP client configuration must use the new address${port === 0 ? ', which changes at every start' : ''}. This page keeps working until Cairn restarts.`,
    },
  ];
}

/** Issues beyond the store's own rules; those with `needs_confirmation` pass once confirmed. */
export async function guardIssues(values: Record<string, unknown>, ctx: GuardContext): Promise<ValidationIssue[]> {
  return [...listIssues(values, ctx), ...(await addressIssues(values, ctx))];
}
