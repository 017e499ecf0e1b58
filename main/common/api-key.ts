/**
 * The one rule for an MCP API key, wherever it comes from (the key file, `CAIRN_MCP_API_KEY`, the
 * admin API, the desktop app's secret store and its IPC). A key travels in an Authorization
 * header and in every client's config file (JSON, TOML, shell), so it is drawn from the URL-safe
 * unreserved characters only; and it must be long enough not to be guessed over the network.
 * Generated keys are `cairn_` + 32 random bytes in base64url (256 bits); a key set by hand must
 * have at least API_KEY_MIN_LENGTH characters (24 characters of this 66-letter alphabet are
 * ~145 bits when random). Pure: no Node, no Electron (shared by engine, shell and workbench).
 */
export const API_KEY_MIN_LENGTH = 24;
export const API_KEY_MAX_LENGTH = 512;
/** RFC 3986 unreserved characters. */
export const API_KEY_ALPHABET = 'A-Z a-z 0-9 - . _ ~';

const SHAPE = /^[A-Za-z0-9._~-]+$/;

/**
 * Why `key` is not acceptable, or null when it is. Besides length and alphabet, a key that is one
 * character repeated or a short run repeated (`aaaa…`, `abcabc…`) is refused: it is long but not
 * secret.
 */
export function apiKeyProblem(key: string): string | null {
  if (key.length < API_KEY_MIN_LENGTH)
    return `An API key must be at least ${API_KEY_MIN_LENGTH} characters (this one has ${key.length}).`;
  if (key.length > API_KEY_MAX_LENGTH) return `An API key must be at most ${API_KEY_MAX_LENGTH} characters.`;
  if (!SHAPE.test(key)) return `An API key may contain only letters, digits and - . _ ~ (URL-safe, no spaces).`;
  if (new Set(key).size < 8) return 'An API key must not be a short pattern repeated: use a generated key.';
  return null;
}

/**
 * How the key is kept at rest: `os` encrypted by the OS secret store (Keychain, DPAPI, libsecret,
 * kwallet); `obfuscated` Electron's `basic_text` backend on Linux without a keyring (a hard-coded
 * key: anyone who can read the file can decode it); `memory` not kept (lost at restart); `file`
 * the headless 0600 key file; `env` CAIRN_MCP_API_KEY.
 */
export const KEY_STORAGES = ['os', 'obfuscated', 'memory', 'file', 'env'] as const;
export type KeyStorage = (typeof KEY_STORAGES)[number];

/** What the user should be told about where the key is kept, or null when nothing needs saying. */
export function keyStorageNotice(storage: KeyStorage | undefined): string | null {
  switch (storage) {
    case 'obfuscated':
      return 'No OS keyring is available (Electron safeStorage uses basic_text): the API key is only obfuscated on disk, not encrypted. Anyone who can read your Cairn data folder can recover it. Install and unlock a keyring (GNOME Keyring or KWallet) and restart Cairn.';
    case 'memory':
      return 'The OS offers no encryption for secrets: the API key is kept in memory only and is lost when Cairn stops.';
    default:
      return null;
  }
}

export function isValidApiKey(key: unknown): key is string {
  return typeof key === 'string' && apiKeyProblem(key) === null;
}

/**
 * The engine's one API-key store contract: the headless key file or CAIRN_MCP_API_KEY
 * (engine/http/api-key-store.ts FileApiKeyStore), or the desktop shell's OS secret store asked over
 * a port (PortApiKeyStore, answered by main/app/engine-key-bridge.ts from SafeStorageKeyFile).
 */
export interface ApiKeyStore {
  /** The current key, or null when none is set. */
  get(): Promise<string | null>;
  set(key: string): Promise<void>;
  /** Replaces the key with a fresh random one and returns it. */
  rotate(): Promise<string>;
  /** Why the key cannot be changed here (e.g. it comes from the environment), or null. */
  readonly readOnlyReason?: string | null;
  /** How the key is kept at rest (shown in the MCP status). */
  readonly storage?: KeyStorage;
}

/**
 * One end of a message channel to the process that owns the key: Electron's `process.parentPort`
 * in a utilityProcess, a worker_threads MessagePort, or Node's child-process IPC.
 */
export interface KeyPort {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
}

/** Engine → owner. `set` carries the new key; the owner answers every request with a reply of the same id. */
export type KeyRequest =
  | { type: 'cairn:api-key:request'; id: number; op: 'get' }
  | { type: 'cairn:api-key:request'; id: number; op: 'set'; key: string };
/** Owner → engine. `changed` tells the engine to forget its copy (the key was set outside it). */
export type KeyReply =
  | { type: 'cairn:api-key:reply'; id: number; ok: true; key: string | null }
  | { type: 'cairn:api-key:reply'; id: number; ok: false; message: string }
  | { type: 'cairn:api-key:changed' };
