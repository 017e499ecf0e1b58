/**
 * A bystander for liveness tests: another client that keeps calling the engine while an attack
 * runs, and records how long each answer took. It speaks raw JSON-RPC over HTTP on purpose: the
 * SDK client compiles every tool's output schema on each `listTools` (60-120 ms of CPU), and in a
 * test that shares a process with the engine that client-side work was most of what was measured.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MCP_HEADERS } from '../mcp/fixtures.js';

export interface Watch {
  /** Slowest answer per method, in ms. */
  slowest: Record<string, number>;
  /** Answers per method that came while the attack was still running (the engine was not waiting for it). */
  during: Record<string, number>;
}

let nextId = 1;

/** One stateless JSON-RPC call; returns its parsed result (SSE or JSON body) and how long it took. */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ result: unknown; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  assert.equal(res.status, 200, `${method}: HTTP ${res.status} ${text.slice(0, 300)}`);
  const json = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: ')) ?? '').slice(6);
  const body = JSON.parse(json) as { result?: unknown; error?: unknown };
  assert.ok(body.result !== undefined, `${method}: ${json.slice(0, 300)}`);
  return { result: body.result, ms };
}

/**
 * Runs `attack` while the bystander calls each of `calls` in turn (50 ms apart) until it ends.
 * Every answer must be a success; the slowest per method, and how many answered before the attack
 * ended, are returned for the caller's bounds.
 */
export async function whileCalling<T>(
  url: string,
  calls: [string, Record<string, unknown>][],
  attack: () => Promise<T>,
): Promise<{ result: T } & Watch> {
  let done = false;
  const slowest: Record<string, number> = {};
  const during: Record<string, number> = {};
  const running = attack().finally(() => (done = true));
  const watching = (async () => {
    while (!done) {
      for (const [method, params] of calls) {
        const { ms } = await rpc(url, method, params);
        slowest[method] = Math.max(slowest[method] ?? 0, ms);
        if (!done) during[method] = (during[method] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const result = await running;
  await watching;
  return { result, slowest, during };
}

/**
 * CPU hogs: busy processes at the engine's own priority, so the machine is loaded while an attack
 * runs. Each in its own session, as other programs on the machine are: with the kernel's autogroup
 * scheduling a session shares CPU with other sessions as a whole, so hogs in the test's own session
 * would be measuring the test, not a busy machine.
 */
export class Hogs {
  private readonly children: ChildProcess[] = [];
  private readonly runnable: number[] = [];
  private readonly sampler: NodeJS.Timeout;

  constructor(count: number) {
    for (let i = 0; i < count; i++)
      this.children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: true }));
    this.sampler = setInterval(() => {
      const m = /^procs_running (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      if (m) this.runnable.push(Number(m[1]));
    }, 100);
  }

  /** The median count of runnable threads on the machine while the hogs ran (from /proc/stat): the control that the CPUs were oversubscribed. */
  medianRunnable(): number {
    const s = [...this.runnable].sort((a, b) => a - b);
    return s.length ? s[Math.floor(s.length / 2)] : 0;
  }

  async stop(): Promise<void> {
    clearInterval(this.sampler);
    await Promise.all(
      this.children.splice(0).map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGKILL');
          }),
      ),
    );
  }
}
