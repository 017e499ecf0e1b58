/**
 * `POST /api/mcp/probe`: a real MCP round trip through the same HTTP server an agent dials (the
 * SDK's client over Streamable HTTP to the in-process URL, with the key when one is required), so
 * a green probe means the whole path works, not just the engine. `auto` negotiates as a current
 * client does (`server/discover`, falling back to `initialize`); `modern` pins 2026-07-28 and
 * `legacy` runs the 2025 handshake, so either era's path can be checked. The result says which
 * era and revision the connection used.
 */
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ErrorBody } from '../../common/errors.js';
import { httpStatusFor, isErrorEnvelope } from '../../common/errors.js';
import type { ProbeEra, ProbeHit, ProbeProtocol, ProbeResult } from '../../common/status.js';
import type { SearchHit } from '../../common/search.js';
import { keyRequired } from '../web/request-guard.js';
import { ENGINE_VERSION } from '../version.js';
import { MODERN_PROTOCOL_VERSIONS } from '../mcp/server-identity.js';
import type { AdminContext } from './context.js';

const PROBE_HITS = 5;

function httpStatusOf(err: unknown): number | undefined {
  if (err instanceof SdkHttpError) return err.status;
  const status = (err as { data?: { status?: unknown } } | null)?.data?.status;
  return typeof status === 'number' ? status : undefined;
}

function transportError(err: unknown): ErrorBody {
  const message = err instanceof Error ? err.message : String(err);
  const status = httpStatusOf(err);
  if (status === 401 || /\b401\b|unauthori[sz]ed/i.test(message)) {
    return {
      code: 'unauthorized',
      message: 'The MCP endpoint refused the API key.',
      remedy: 'Generate or rotate the API key, then probe again.',
    };
  }
  if (status === 403) {
    return { code: 'forbidden', message, remedy: 'Add the in-process address to mcp.allowed_hosts.' };
  }
  return {
    code: 'dependency_unavailable',
    message: `The MCP endpoint did not answer: ${message}`,
    remedy: 'Check that mcp.enabled is true and restart the MCP server.',
  };
}

function negotiation(era: ProbeEra) {
  if (era === 'legacy') return { mode: 'legacy' as const };
  if (era === 'modern') return { mode: { pin: MODERN_PROTOCOL_VERSIONS[0] } };
  return { mode: 'auto' as const };
}

export async function runProbe(
  ctx: AdminContext,
  query: string,
  era: ProbeEra = 'auto',
): Promise<{ status: number; body: ProbeResult }> {
  const url = ctx.inProcessOrigin() + ctx.endpoint.mount.mountPath;
  const headers: Record<string, string> = {};
  if (keyRequired(ctx.engine.settings, ctx.loopbackOnly)) {
    const key = await ctx.apiKeyStore.get();
    if (key) headers.authorization = `Bearer ${key}`;
  }
  const started = performance.now();
  const client = new Client({ name: 'cairn-probe', version: ENGINE_VERSION }, { versionNegotiation: negotiation(era) });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  let tools: string[] = [];
  const latency = () => Math.round(performance.now() - started);
  const protocol = (): ProbeProtocol => ({
    era: client.getProtocolEra() ?? null,
    protocol_version: client.getNegotiatedProtocolVersion() ?? null,
  });
  const fail = (error: ErrorBody) => ({
    status: httpStatusFor(error.code),
    body: { ok: false as const, tools, latency_ms: latency(), transport_url: url, error, ...protocol() },
  });
  try {
    await client.connect(transport);
    tools = (await client.listTools()).tools.map((t) => t.name);
    // Only the query: the probe must exercise the defaults the mounted server captured.
    const result = await client.callTool({ name: 'search', arguments: { query } });
    const structured = result.structuredContent;
    if (result.isError || isErrorEnvelope(structured)) {
      const error = isErrorEnvelope(structured)
        ? structured.error
        : { code: 'internal' as const, message: 'search failed without a typed error' };
      return fail(error);
    }
    const hits = ((structured as { result?: { hits?: SearchHit[] } } | undefined)?.result?.hits ?? []).slice(
      0,
      PROBE_HITS,
    );
    const probeHits: ProbeHit[] = hits.map((h) => ({
      path: h.path,
      start_line: h.start_line,
      end_line: h.end_line,
      ...(h.page ? { page: h.page } : {}),
      score: h.score,
    }));
    return {
      status: 200,
      body: {
        ok: true,
        tools,
        latency_ms: latency(),
        hits: probeHits,
        transport_url: url,
        transport_label: 'in-process',
        ...protocol(),
      },
    };
  } catch (err) {
    return fail(transportError(err));
  } finally {
    await client.close().catch(() => undefined);
  }
}
