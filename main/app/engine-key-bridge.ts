/**
 * The shell's half of the engine's key store (main/engine/http/api-key-store.ts PortApiKeyStore):
 * the engine, in its utilityProcess, asks over its port for the MCP API key and the shell answers
 * from the safeStorage-backed SafeStorageKeyFile, so the key is encrypted by the OS and never sits in the
 * engine's data folder. No electron import: the port is whatever the spawner hands over.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { apiKeyProblem, isValidApiKey } from '../common/api-key.js';
import type { KeyReply, KeyRequest } from '../common/api-key.js';

/** The engine child as the shell sees it: Electron's UtilityProcess, or a Node child with IPC in tests. */
export interface EnginePort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export interface KeyOwner {
  get(): string | null;
  set(key: string | null): void;
}

function isRequest(m: unknown): m is KeyRequest {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Partial<Record<string, unknown>>;
  return (
    r.type === 'cairn:api-key:request' &&
    typeof r.id === 'number' &&
    (r.op === 'get' || (r.op === 'set' && typeof r.key === 'string'))
  );
}

/** Answers one request; a failure (keychain locked, bad key) is a reply, never a silent drop. */
export function answerKeyRequest(store: KeyOwner, m: unknown): KeyReply | null {
  if (!isRequest(m)) return null;
  try {
    if (m.op === 'get') return { type: 'cairn:api-key:reply', id: m.id, ok: true, key: store.get() };
    const problem = apiKeyProblem(m.key);
    if (problem) throw new Error(problem);
    store.set(m.key);
    return { type: 'cairn:api-key:reply', id: m.id, ok: true, key: m.key };
  } catch (err) {
    return {
      type: 'cairn:api-key:reply',
      id: m.id,
      ok: false,
      message: err instanceof Error ? err.message : String(err),
    };
  }
}

/** Serves the engine's key requests on its port for as long as the child lives. */
export function serveKeyRequests(port: EnginePort, store: KeyOwner): void {
  port.on('message', (m) => {
    const reply = answerKeyRequest(store, m);
    if (reply) port.postMessage(reply);
  });
}

/** Tells a running engine its copy of the key is stale (the workbench set it through the preload). */
export function keyChanged(port: EnginePort | null): void {
  port?.postMessage({ type: 'cairn:api-key:changed' } satisfies KeyReply);
}

/**
 * Earlier versions let the engine keep the key in `<engine home>/mcp-api-key`: moved into the
 * secret store once, then removed, so the clear-text copy does not linger. Kept when the store
 * cannot persist (no OS encryption), as removing it would lose the key at the next start.
 */
export function importEngineKeyFile(store: KeyOwner & { persistent(): boolean }, file: string): boolean {
  if (!existsSync(file) || store.get() !== null || !store.persistent()) return false;
  const key = readFileSync(file, 'utf8').trim();
  if (!isValidApiKey(key)) return false;
  store.set(key);
  rmSync(file, { force: true });
  return true;
}
