/**
 * Writes Cairn into a client's config file, only after the caller confirmed: merges into the
 * existing JSON or TOML (other servers and settings stay), keeps a timestamped backup of the
 * previous file, and writes atomically with mode 0600 (the file may hold the API key).
 */
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CairnError } from '../errors.js';
import { SERVER_NAME, clientSpec, type ClientSetup } from './configs.js';
import { clientConfigPath } from './paths.js';
import { mergeTomlTable } from './toml.js';

export interface InstallResult {
  id: string;
  config_path: string;
  backup_path: string | null;
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function mergeJson(existing: string | null, path: string, container: string, entry: unknown): string {
  let doc: Record<string, unknown> = {};
  if (existing !== null && existing.trim() !== '') {
    try {
      const parsed = JSON.parse(existing) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      doc = parsed as Record<string, unknown>;
    } catch (err) {
      throw new CairnError('conflict', `${path} is not a JSON object (${(err as Error).message}); it was left untouched.`, {
        remedy: 'Fix the file by hand or copy the snippet into it.',
      });
    }
  }
  const servers = doc[container];
  const table = typeof servers === 'object' && servers !== null && !Array.isArray(servers) ? (servers as Record<string, unknown>) : {};
  doc[container] = { ...table, [SERVER_NAME]: entry };
  return JSON.stringify(doc, null, 2) + '\n';
}

/** `2026-11-29T23-04-05-123Z`: sortable and valid in file names on every OS. */
function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

export async function installClient(id: string, setup: ClientSetup): Promise<InstallResult> {
  const spec = clientSpec(id);
  if (!spec) throw new CairnError('invalid_argument', `Unknown client '${id}'`, { details: { key: 'id' } });
  const path = clientConfigPath(spec.id, setup.home, setup.platform);
  if (!path || spec.format === 'command') {
    throw new CairnError('invalid_argument', `${spec.name} is configured with a command; copy and run the snippet.`, { details: { key: 'id' } });
  }
  const existing = await readIfExists(path);
  const entry = spec.entry(setup);
  const text = spec.format === 'toml'
    ? mergeTomlTable(existing ?? '', ['mcp_servers', SERVER_NAME], entry as Record<string, unknown>)
    : mergeJson(existing, path, spec.container ?? 'mcpServers', entry);
  await mkdir(dirname(path), { recursive: true });
  let backup: string | null = null;
  if (existing !== null) {
    backup = `${path}.cairn-backup-${stamp()}`;
    await copyFile(path, backup);
  }
  const tmp = `${path}.cairn-tmp-${process.pid}`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, path);
  return { id: spec.id, config_path: path, backup_path: backup };
}
