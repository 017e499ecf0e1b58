/**
 * The MCP API key at rest, encrypted by the OS secret store (Electron's safeStorage: Keychain,
 * DPAPI, libsecret/kwallet). The cipher is injected so this file stays plain Node and testable.
 * If the OS offers no encryption the key is kept in memory only: never written in clear.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SecretCipher {
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

export class ApiKeyStore {
  private memory: string | null = null;

  constructor(
    private readonly file: string,
    private readonly cipher: SecretCipher,
  ) {}

  /** Whether keys survive a restart (false: no OS encryption, memory only). */
  persistent(): boolean {
    return this.cipher.isAvailable();
  }

  get(): string | null {
    if (this.memory !== null) return this.memory;
    if (!this.cipher.isAvailable() || !existsSync(this.file)) return null;
    try {
      this.memory = this.cipher.decrypt(readFileSync(this.file));
      return this.memory;
    } catch {
      // Unreadable (another user's keyring, a moved profile): as if none were stored.
      return null;
    }
  }

  set(key: string | null): void {
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
