/**
 * Starts the real engine headless (`cairn serve --port 0`) over a temporary CAIRN_HOME with a
 * known admin token, and reads the addresses it prints. No fake engine: these tests exercise the
 * workbench against the code that ships.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningEngine {
  home: string;
  token: string;
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  port: number;
  /** The workbench address with `#token=`. */
  workbenchUrl: string;
  mcpUrl: string;
  output(): string;
  /** Admin API call with the token. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** SIGTERM and wait (the engine closes its index cleanly). */
  stop(): Promise<void>;
  /** Start again on the same port, home and token (an engine restart under the workbench). */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

function launch(
  home: string,
  token: string,
  port: number,
  log: string[],
  extraEnv: Record<string, string>,
): Promise<{ child: ChildProcess; workbench: string; mcp: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'main/engine/cli/main.ts'), 'serve', '--port', String(port)],
    {
      cwd: repoRoot,
      env: { ...process.env, CAIRN_HOME: home, CAIRN_ADMIN_TOKEN: token, LANCEDB_LOG: 'error', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let workbench = '';
    let mcp = '';
    const timer = setTimeout(
      () => reject(new Error(`engine did not print its address in 60 s:\n${log.join('')}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString());
      const text = log.join('');
      workbench ||= /Workbench:\s*(\S+)/.exec(text)?.[1] ?? '';
      mcp ||= /MCP:\s*(\S+)/.exec(text)?.[1] ?? '';
      if (workbench && mcp) {
        clearTimeout(timer);
        resolve({ child, workbench, mcp });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => log.push(c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`engine exited with ${code} before serving:\n${log.join('')}`));
    });
  });
}

/** `env`: extra variables for the engine, e.g. `HF_ENDPOINT` pointing at a hub double. */
export async function startEngine(env: Record<string, string> = {}): Promise<RunningEngine> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-e2e-home-'));
  const token = randomBytes(24).toString('base64url');
  const log: string[] = [];
  let { child, workbench, mcp } = await launch(home, token, 0, log, env);
  const origin = new URL(workbench).origin;
  const port = Number(new URL(workbench).port);

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(t);
  };

  return {
    home,
    token,
    origin,
    port,
    // Printed without the token when stdout is not a terminal (as here): the test knows it.
    workbenchUrl: `${origin}/#token=${encodeURIComponent(token)}`,
    mcpUrl: mcp,
    output: () => log.join(''),
    async api<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(origin + path, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
    stop,
    async restart() {
      await stop();
      ({ child, workbench, mcp } = await launch(home, token, port, log, env));
    },
    async dispose() {
      await stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
