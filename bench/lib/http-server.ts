/**
 * Starting the engine's HTTP server (MCP + admin API) in this process for a benchmark. Loaded
 * lazily so a checkout without the server records `skipped`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { EngineApi } from '../../main/engine/api.js';
import { SkipError } from './benchmark.js';

export interface BenchServer {
  url: string;
  mcpUrl: string;
  adminToken: string;
  close(): Promise<void>;
}

export async function startBenchServer(root: string, engine: EngineApi, home: string): Promise<BenchServer> {
  if (!existsSync(join(root, 'main/engine/http/server.ts')))
    throw new SkipError('the HTTP server (main/engine/http/server.ts) is not in this checkout yet');
  const serverSpec = '../../main/engine/http/server.js';
  const keySpec = '../../main/engine/http/api-key-store.js';
  const { startHttpServer } = (await import(serverSpec)) as {
    startHttpServer: (e: EngineApi, o: Record<string, unknown>) => Promise<{ url: string; close(): Promise<void> }>;
  };
  const { FileApiKeyStore } = (await import(keySpec)) as {
    FileApiKeyStore: new (dir: string, env?: NodeJS.ProcessEnv) => unknown;
  };
  const adminToken = randomBytes(24).toString('hex');
  const handle = await startHttpServer(engine, {
    port: 0,
    host: '127.0.0.1',
    adminToken,
    apiKeyStore: new FileApiKeyStore(home, {}),
    stdioCommand: ['cairn', 'mcp', '--stdio'],
  });
  const mount = engine.settings.get<string>('mcp.mount_path');
  return { url: handle.url, mcpUrl: handle.url + mount, adminToken, close: () => handle.close() };
}

/** Tool calls that came back `isError`, from the admin API's counters (null if unavailable). */
export async function toolErrors(server: BenchServer): Promise<number | null> {
  try {
    const res = await fetch(`${server.url}/api/mcp/status`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { requests?: { errors?: number } };
    return typeof body.requests?.errors === 'number' ? body.requests.errors : null;
  } catch {
    return null;
  }
}
