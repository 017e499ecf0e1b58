/**
 * Where the MCP API key lives. Never in the settings file: the desktop app injects an
 * implementation over the OS secret store (Electron safeStorage); headless, the key comes from
 * `CAIRN_MCP_API_KEY` or a file only the user can read.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CairnError } from '../errors.js';

export interface ApiKeyStore {
  /** The current key, or null when none is set. */
  get(): Promise<string | null>;
  set(key: string): Promise<void>;
  /** Replaces the key with a fresh random one and returns it. */
  rotate(): Promise<string>;
  /** Why the key cannot be changed here (e.g. it comes from the environment), or null. */
  readonly readOnlyReason?: string | null;
}

/** 32 random bytes, URL-safe: fits an Authorization header and every client's config format. */
export function generateApiKey(): string {
  return `cairn_${randomBytes(32).toString('base64url')}`;
}

const KEY_SHAPE = /^[A-Za-z0-9._~+/=-]{16,512}$/;

function checkShape(key: string): void {
  if (!KEY_SHAPE.test(key)) {
    throw new CairnError('invalid_argument', 'An API key must be 16 to 512 characters of letters, digits and ._~+/=-', {
      details: { rule: 'pattern' },
    });
  }
}

/** Headless store: `CAIRN_MCP_API_KEY` wins (read-only), else `<dataDir>/mcp-api-key` with mode 0600. */
export class FileApiKeyStore implements ApiKeyStore {
  private readonly file: string;
  private readonly envKey: string | undefined;
  private cached: string | null | undefined;

  constructor(dataDir: string, env: NodeJS.ProcessEnv = process.env) {
    this.file = join(dataDir, 'mcp-api-key');
    this.envKey = env.CAIRN_MCP_API_KEY?.trim() || undefined;
  }

  get readOnlyReason(): string | null {
    return this.envKey ? 'The key comes from CAIRN_MCP_API_KEY; change it there.' : null;
  }

  async get(): Promise<string | null> {
    if (this.envKey) return this.envKey;
    if (this.cached !== undefined) return this.cached;
    try {
      const text = (await readFile(this.file, 'utf8')).trim();
      this.cached = text || null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.cached = null;
    }
    return this.cached;
  }

  async set(key: string): Promise<void> {
    if (this.envKey) throw new CairnError('conflict', this.readOnlyReason ?? '');
    checkShape(key);
    await mkdir(dirname(this.file), { recursive: true });
    // Written to a private temp file and renamed, so the key is never readable by others, even briefly.
    const tmp = `${this.file}.${process.pid}.tmp`;
    await rm(tmp, { force: true });
    await writeFile(tmp, `${key}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(tmp, 0o600);
    await rename(tmp, this.file);
    this.cached = key;
  }

  async rotate(): Promise<string> {
    const key = generateApiKey();
    await this.set(key);
    return key;
  }
}
