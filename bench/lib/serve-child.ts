/** `cairn serve` as its own process for a benchmark: a free port, waiting for tools/list, stopping it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { ENGINE_MALLOC_ENV, withEngineMallocEnv } from '../../main/engine/kernel/malloc-env.js';
import { ENGINE_NODE_FLAGS } from '../../main/engine/kernel/young-generation.js';
import { MCP_HEADERS } from './load.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function toolsList(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { result?: { tools?: unknown[] } };
    return Array.isArray(body.result?.tools);
  } catch {
    return false;
  }
}

export interface ServeChild {
  child: ChildProcess;
  pid: number;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  mcpUrl: string;
  /** Milliseconds from the spawn to the first tools/list answered. */
  readyMs: number;
  /** The last 2,000 characters it wrote to stderr. */
  stderr(): string;
}

/**
 * Spawns `node <argv> serve --port <free port>` (argv: the compiled CLI's, or tsx and the
 * sources) with `env`, and resolves once it answers tools/list; a server that exits first or does
 * not answer within 120 s is an error carrying its stderr. Stop it with `stop(s.child)`.
 */
export async function startServe(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ServeChild> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const mcpUrl = `${url}/mcp`;
  let stderr = '';
  const t0 = performance.now();
  const child = spawn(process.execPath, [...argv, 'serve', '--port', String(port)], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-2000)));
  try {
    while (!(await toolsList(mcpUrl))) {
      if (child.exitCode !== null) throw new Error(`cairn serve exited with ${child.exitCode}: ${stderr}`);
      if (performance.now() - t0 > 120_000)
        throw new Error(`cairn serve did not answer tools/list within 120 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } catch (err) {
    await stop(child);
    throw err;
  }
  return { child, pid: child.pid!, url, mcpUrl, readyMs: performance.now() - t0, stderr: () => stderr };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Resident MB and thread count of a process (Linux /proc), null where unavailable. */
export function processFigures(pid: number): { rssMb: number; threads: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(status);
    const threads = /Threads:\s+(\d+)/.exec(status);
    return rss && threads ? { rssMb: Number(rss[1]) / 1024, threads: Number(threads[1]) } : null;
  } catch {
    return null;
  }
}

/**
 * The environment an engine process gets: the app's (withEngineMallocEnv), or with
 * `--malloc glibc-default` none of those settings (glibc's defaults, to compare against).
 */
export function engineEnv(options: Map<string, string>, extra: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(ENGINE_MALLOC_ENV)) delete base[key];
  if (options.get('malloc') === 'glibc-default') return base;
  return withEngineMallocEnv(base, {});
}

/**
 * The Node flags an engine process starts with: the app's (kernel/young-generation.ts), or with
 * `--young-generation v8-default` none (V8's default semi-spaces, to compare against).
 */
export function engineFlags(options: Map<string, string>): string[] {
  return options.get('young-generation') === 'v8-default' ? [] : [...ENGINE_NODE_FLAGS];
}

/** What `engineEnv` chose, for the results file. */
export function mallocNote(env: NodeJS.ProcessEnv): string {
  const set = Object.keys(ENGINE_MALLOC_ENV).filter((k) => env[k] !== undefined);
  return set.length > 0 ? set.map((k) => `${k}=${env[k]}`).join(' ') : 'glibc defaults';
}

/** What a served engine was started with (`engineEnv` and `engineFlags`), for the results file. */
export function serveNote(env: NodeJS.ProcessEnv, flags: readonly string[]): string {
  return `${mallocNote(env)}; node ${flags.join(' ') || 'defaults'}`;
}

/** Peak resident MB so far (VmHWM) of a process, null once it is gone. */
export function peakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
