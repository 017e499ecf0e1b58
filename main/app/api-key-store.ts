/**
 * The MCP API key at rest, encrypted by the OS secret store (Electron's safeStorage: Keychain,
 * DPAPI, libsecret/kwallet). The cipher is injected so this file stays plain Node and testable.
 * If the OS offers no encryption the key is kept in memory only: never written in clear.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { apiKeyProblem, isValidApiKey, type KeyStorage } from '../common/api-key.js';

export interface SecretCipher {
  isAvailable(): boolean;
  /** Linux: safeStorage.getSelectedStorageBackend() (`basic_text` is an obfuscation, not encryption). */
  backend?(): string;
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

/** The key file the desktop shell owns, encrypted by the OS; the engine reaches it through its ApiKeyStore (a PortApiKeyStore). */
export class SafeStorageKeyFile {
  private memory: string | null = null;

  constructor(
    private readonly file: string,
    private readonly cipher: SecretCipher,
  ) {}

  /** How a stored key is protected; the user is told when it is only obfuscated or not kept. */
  storage(): KeyStorage {
    if (!this.cipher.isAvailable()) return 'memory';
    return this.cipher.backend?.() === 'basic_text' ? 'obfuscated' : 'os';
  }

  /** Whether keys survive a restart (false: no OS encryption, memory only). */
  persistent(): boolean {
    return this.cipher.isAvailable();
  }

  get(): string | null {
    if (this.memory !== null) return this.memory;
    if (!this.cipher.isAvailable() || !existsSync(this.file)) return null;
    try {
      const key = this.cipher.decrypt(readFileSync(this.file));
      // A key stored by an older version under a laxer rule is not served: the MCP endpoint then
      // refuses every request (fail closed) until a new key is generated in the workbench.
      if (!isValidApiKey(key)) return null;
      this.memory = key;
      return this.memory;
    } catch {
      // Unreadable (another user's keyring, a moved profile): as if none were stored.
      return null;
    }
  }

  set(key: string | null): void {
    const problem = key === null ? null : apiKeyProblem(key);
    if (problem) throw new Error(problem);
    this.memory = key;
    if (key === null) {
      rmSync(this.file, { force: true });
      return;
    }
    if (!this.cipher.isAvailable()) return;
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileSync(this.file, this.cipher.encrypt(key), { mode: 0o600 });
    chmodSync(this.file, 0o600);
  }
}
