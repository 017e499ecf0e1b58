/**
 * Where the MCP API key lives. Never in the settings file: the desktop app injects an
 * implementation over the OS secret store (Electron safeStorage); headless, the key comes from
 * `CAIRN_MCP_API_KEY` or a file only the user can read.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  apiKeyProblem,
  API_KEY_MIN_LENGTH,
  type ApiKeyStore,
  type KeyPort,
  type KeyReply,
  type KeyRequest,
  type KeyStorage,
} from '../../common/api-key.js';

export type { ApiKeyStore, KeyPort, KeyReply, KeyRequest };
import { CairnError } from '../errors.js';
import { writeFileAtomic } from '../kernel/atomic-write.js';

/** 32 random bytes, URL-safe: fits an Authorization header and every client's config format. */
export function generateApiKey(): string {
  return `cairn_${randomBytes(32).toString('base64url')}`;
}

/** A key handed in to be stored (admin API, IPC): refused as a bad argument. */
function checkNewKey(key: string): void {
  const problem = apiKeyProblem(key);
  if (problem)
    throw new CairnError('invalid_argument', problem, {
      remedy: 'Generate a key instead (the workbench or POST /api/mcp/api-key {"action":"generate"}).',
      details: { rule: 'api_key', min_length: API_KEY_MIN_LENGTH },
    });
}

/**
 * A key found where the engine reads it (the environment, the key file, the desktop app): a weak
 * one stops the engine with the place to fix, rather than guard every indexed file with it.
 */
function checkStoredKey(key: string, where: string, remedy: string): string {
  const problem = apiKeyProblem(key);
  if (problem)
    throw new CairnError('config_invalid', `The MCP API key in ${where} is refused: ${problem}`, {
      remedy,
      details: { key: 'mcp.api_key', rule: 'api_key', min_length: API_KEY_MIN_LENGTH },
    });
  return key;
}

/** Headless store: `CAIRN_MCP_API_KEY` wins (read-only), else `<dataDir>/mcp-api-key` with mode 0600. */
export class FileApiKeyStore implements ApiKeyStore {
  private readonly file: string;
  private readonly envKey: string | undefined;
  private cached: string | null | undefined;

  constructor(dataDir: string, env: NodeJS.ProcessEnv = process.env) {
    this.file = join(dataDir, 'mcp-api-key');
    const envKey = env.CAIRN_MCP_API_KEY?.trim() || undefined;
    // Checked here, before anything listens: `cairn serve` refuses to start with a weak key.
    this.envKey =
      envKey &&
      checkStoredKey(
        envKey,
        'CAIRN_MCP_API_KEY',
        'Set CAIRN_MCP_API_KEY to a generated key (e.g. the output of `openssl rand -hex 32`), or unset it and generate one in the workbench.',
      );
  }

  get readOnlyReason(): string | null {
    return this.envKey ? 'The key comes from CAIRN_MCP_API_KEY; change it there.' : null;
  }

  get storage(): KeyStorage {
    return this.envKey ? 'env' : 'file';
  }

  async get(): Promise<string | null> {
    if (this.envKey) return this.envKey;
    if (this.cached !== undefined) return this.cached;
    try {
      const text = (await readFile(this.file, 'utf8')).trim();
      this.cached = text
        ? checkStoredKey(
            text,
            this.file,
            `Delete ${this.file} and generate a new key in the workbench (or write a generated key of at least ${API_KEY_MIN_LENGTH} characters into it).`,
          )
        : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.cached = null;
    }
    return this.cached;
  }

  async set(key: string): Promise<void> {
    if (this.envKey) throw new CairnError('conflict', this.readOnlyReason ?? '');
    checkNewKey(key);
    await mkdir(dirname(this.file), { recursive: true });
    // Written to a private temp file and renamed, so the key is never readable by others, even briefly.
    await writeFileAtomic(this.file, `${key}\n`, { mode: 0o600 });
    this.cached = key;
  }

  async rotate(): Promise<string> {
    const key = generateApiKey();
    await this.set(key);
    return key;
  }
}

function isReply(m: unknown): m is KeyReply {
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof (m as { type?: unknown }).type === 'string' &&
    (m as { type: string }).type.startsWith('cairn:api-key:')
  );
}

/**
 * The desktop store: the key lives with the Electron main process (safeStorage), which this
 * engine asks over its port. The engine keeps a copy once read, so an MCP request that checks
 * the key costs no round trip; the owner says `changed` when the key moves under it.
 */
export class PortApiKeyStore implements ApiKeyStore {
  readonly readOnlyReason = null;
  private nextId = 1;
  private cached: string | null | undefined;
  private readonly waiting = new Map<
    number,
    { resolve: (key: string | null) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }
  >();

  constructor(
    private readonly port: KeyPort,
    /** An owner that never answers (a hung main process) must not hang MCP requests. */
    private readonly timeoutMs = 10_000,
    /** As the desktop app reports it (CAIRN_KEY_STORAGE). */
    readonly storage?: KeyStorage,
  ) {
    port.onMessage((m) => this.onMessage(m));
  }

  private onMessage(m: unknown): void {
    if (!isReply(m)) return;
    if (m.type === 'cairn:api-key:changed') {
      this.cached = undefined;
      return;
    }
    const w = this.waiting.get(m.id);
    if (!w) return;
    this.waiting.delete(m.id);
    clearTimeout(w.timer);
    if (!m.ok) {
      w.reject(
        new CairnError('dependency_unavailable', `The desktop app could not access the API key: ${m.message}`, {
          remedy: 'Check that the OS keychain (safeStorage) is unlocked, then try again.',
        }),
      );
      return;
    }
    try {
      w.resolve(
        typeof m.key === 'string'
          ? checkStoredKey(m.key, "the desktop app's secret store", 'Generate a new key in the workbench.')
          : null,
      );
    } catch (err) {
      w.reject(err as Error);
    }
  }

  private ask(req: { op: 'get' } | { op: 'set'; key: string }): Promise<string | null> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(
          new CairnError(
            'dependency_unavailable',
            `The desktop app did not answer for the API key within ${this.timeoutMs} ms.`,
            { remedy: 'Restart Cairn.' },
          ),
        );
      }, this.timeoutMs);
      // Not unref'd: the port itself is (it must not keep a stopped engine alive), so a pending
      // question (the key read before the server listens) is what keeps the process waiting.
      this.waiting.set(id, { resolve, reject, timer });
      this.port.postMessage({ type: 'cairn:api-key:request', id, ...req } satisfies KeyRequest);
    });
  }

  async get(): Promise<string | null> {
    if (this.cached !== undefined) return this.cached;
    const key = await this.ask({ op: 'get' });
    this.cached = key;
    return key;
  }

  async set(key: string): Promise<void> {
    checkNewKey(key);
    await this.ask({ op: 'set', key });
    this.cached = key;
  }

  async rotate(): Promise<string> {
    const key = generateApiKey();
    await this.set(key);
    return key;
  }
}

type ParentPort = {
  postMessage(m: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
};

/** The port to the parent: Electron's utilityProcess `parentPort`, else Node's IPC channel, else null. */
export function parentKeyPort(proc: NodeJS.Process = process): KeyPort | null {
  const pp = (proc as NodeJS.Process & { parentPort?: ParentPort }).parentPort;
  if (pp) return { postMessage: (m) => pp.postMessage(m), onMessage: (l) => void pp.on('message', (e) => l(e.data)) };
  const send = proc.send?.bind(proc);
  if (!send) return null;
  return {
    postMessage: (m) => void send(m),
    onMessage: (l) => {
      proc.on('message', l);
      // Listening must not keep the engine alive after it has stopped serving.
      proc.channel?.unref();
    },
  };
}

/**
 * The store `cairn serve` uses: `CAIRN_API_KEY_STORE=parent` (set by the desktop shell) asks the
 * parent process, which keeps the key in the OS secret store; otherwise the headless file store.
 */
export function apiKeyStoreFor(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  proc: NodeJS.Process = process,
): ApiKeyStore {
  if (env.CAIRN_API_KEY_STORE !== 'parent') return new FileApiKeyStore(dataDir, env);
  const port = parentKeyPort(proc);
  if (!port)
    throw new CairnError(
      'invalid_argument',
      'CAIRN_API_KEY_STORE=parent needs a parent process to ask (the desktop app); unset it to use the key file.',
    );
  const storage = ['os', 'obfuscated', 'memory'].includes(env.CAIRN_KEY_STORAGE ?? '')
    ? (env.CAIRN_KEY_STORAGE as KeyStorage)
    : undefined;
  return new PortApiKeyStore(port, undefined, storage);
}
