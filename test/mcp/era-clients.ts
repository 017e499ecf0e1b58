/**
 * Real MCP clients of both protocol eras behind one small interface, so the same checks run
 * against each: the v2 SDK client pinned to 2026-07-28 or negotiating (`auto`), the v2 client in
 * its 2025 `legacy` mode, and the v1 SDK client (a 2025-era client as shipped in 2025).
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';

export const CLIENT_KINDS = ['v2-pinned-2026', 'v2-auto', 'v2-legacy', 'v1'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** The era each kind must end up in against Cairn (which serves both). */
export const EXPECTED_ERA: Record<ClientKind, 'modern' | 'legacy'> = {
  'v2-pinned-2026': 'modern',
  'v2-auto': 'modern',
  'v2-legacy': 'legacy',
  v1: 'legacy',
};

export interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
  content: { type: string; text?: string }[];
}

export interface EraClient {
  kind: ClientKind;
  era: 'modern' | 'legacy';
  protocolVersion: string | undefined;
  /** server/discover's result (modern) or null (legacy). */
  discover: { supportedVersions: string[]; capabilities: Record<string, unknown> } | null;
  capabilities: Record<string, unknown> | undefined;
  listTools(): Promise<{ name: string; inputSchema: unknown; outputSchema?: unknown }[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

function negotiation(kind: ClientKind) {
  if (kind === 'v2-pinned-2026') return { mode: { pin: '2026-07-28' } };
  if (kind === 'v2-auto') return { mode: 'auto' as const };
  return { mode: 'legacy' as const };
}

/** Connects a client of `kind` over Streamable HTTP (`url`) or stdio (`launch`). */
export async function connectEra(
  kind: ClientKind,
  target: { url: string; headers?: Record<string, string> } | { stdio: StdioLaunch },
): Promise<EraClient> {
  const info = { name: `cairn-test-${kind}`, version: '1.0.0' };
  if (kind === 'v1') {
    const client = new V1Client(info);
    const transport =
      'url' in target
        ? new V1Http(new URL(target.url), { requestInit: { headers: target.headers ?? {} } })
        : new V1Stdio({ ...target.stdio, stderr: 'pipe' });
    await client.connect(transport);
    return {
      kind,
      era: 'legacy',
      protocolVersion: 'url' in target ? (transport as V1Http).protocolVersion : undefined,
      discover: null,
      capabilities: client.getServerCapabilities() as Record<string, unknown> | undefined,
      listTools: async () => (await client.listTools()).tools,
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
      close: () => client.close(),
    };
  }
  const client = new V2Client(info, { versionNegotiation: negotiation(kind) });
  const transport =
    'url' in target
      ? new V2Http(new URL(target.url), { requestInit: { headers: target.headers ?? {} } })
      : new V2Stdio({ ...target.stdio, stderr: 'pipe' });
  await client.connect(transport);
  const discover = client.getDiscoverResult() as EraClient['discover'] | undefined;
  return {
    kind,
    era: client.getProtocolEra() ?? 'legacy',
    protocolVersion: client.getNegotiatedProtocolVersion(),
    discover: discover ?? null,
    capabilities: client.getServerCapabilities() as Record<string, unknown> | undefined,
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}
