/**
 * Runs the engine (`cairn serve`) as a child process and keeps it alive: restarts it with
 * exponential backoff when it dies, learns its address from the lines it prints, and stops it
 * cleanly on quit. The spawner is injected: the app passes Electron's `utilityProcess.fork` (so
 * indexing never blocks the UI process), tests pass Node's `child_process.fork`.
 * No electron import here, so this file runs and is tested in plain Node.
 */
import { readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { EngineAddress } from './channels.js';
import type { EngineAway } from '../common/engine-away.js';
import { withEngineMallocEnv } from '../engine/kernel/malloc-env.js';
import { engineNodeFlags } from '../engine/kernel/young-generation.js';

export interface EngineChild {
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  kill(): boolean;
  once(event: 'exit', listener: (code: number | null) => void): unknown;
}

/** `execArgv`: the Node flags the engine process must start with (kernel/young-generation.ts). */
export type SpawnEngine = (
  entry: string,
  args: string[],
  env: Record<string, string>,
  execArgv: string[],
) => EngineChild;

export type SupervisorState = 'idle' | 'starting' | 'running' | 'backoff' | 'stopping' | 'stopped' | 'failed';

export interface SupervisorOptions {
  spawn: SpawnEngine;
  /** The engine's CLI entry (compiled `main/engine/cli/main.js`). */
  entry: string;
  args: string[];
  env: Record<string, string>;
  adminToken: string;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A run this long counts as healthy and resets the backoff. */
  healthyAfterMs?: number;
  /** Consecutive quick crashes before giving up (the tray then shows the failure). */
  maxQuickCrashes?: number;
  /** How long `stop()` waits for a clean exit. */
  stopTimeoutMs?: number;
  log?: (line: string) => void;
  /**
   * The engine's admin-token file (0600 in its data folder). An engine the child attached to has
   * its own token, and piped output never carries a token: it is read from here.
   */
  tokenFile?: string;
}

/** `Workbench: http://127.0.0.1:58012/#token=…` → origin; `MCP: http://…/mcp` → the MCP URL. */
export function parseEngineLine(line: string): { workbench?: string; mcp?: string } {
  const wb = /^\s*Workbench:\s*(\S+)/.exec(line);
  if (wb) return { workbench: wb[1] };
  const mcp = /^\s*MCP:\s*(\S+)/.exec(line);
  if (mcp) return { mcp: mcp[1] };
  return {};
}

export class EngineSupervisor extends EventEmitter {
  private child: EngineChild | null = null;
  private state: SupervisorState = 'idle';
  private addr: EngineAddress | null = null;
  private mcpUrl: string | null = null;
  private quickCrashes = 0;
  private lastExitCode: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly o: Required<SupervisorOptions>;

  constructor(options: SupervisorOptions) {
    super();
    this.o = {
      initialBackoffMs: 500,
      maxBackoffMs: 30_000,
      healthyAfterMs: 30_000,
      maxQuickCrashes: 8,
      stopTimeoutMs: 5_000,
      tokenFile: '',
      log: () => {},
      ...options,
    };
  }

  get current(): SupervisorState {
    return this.state;
  }

  address(): EngineAddress | null {
    return this.addr;
  }

  mcpAddress(): string | null {
    return this.mcpUrl;
  }

  /** Why there is no engine to talk to now, for the page the shell serves; null while one runs. */
  away(): EngineAway | null {
    if (this.addr) return null;
    const exits = { exits: this.quickCrashes, last_exit_code: this.lastExitCode };
    switch (this.state) {
      case 'idle':
      case 'starting':
        // Starting again after an exit is still a restart: the page should not call it a first start.
        return { engine: this.quickCrashes > 0 ? 'restarting' : 'starting', ...exits };
      case 'backoff':
        return { engine: 'restarting', ...exits };
      case 'failed':
        return { engine: 'failed', ...exits };
      case 'stopping':
      case 'stopped':
        return { engine: 'stopping', ...exits };
      case 'running':
        return { engine: 'starting', ...exits };
    }
  }

  start(): void {
    if (this.state === 'starting' || this.state === 'running') return;
    this.quickCrashes = 0;
    this.launch();
  }

  private setState(s: SupervisorState): void {
    this.state = s;
    this.emit('state', s);
  }

  private launch(): void {
    this.setState('starting');
    const started = Date.now();
    const env = withEngineMallocEnv({ ...this.o.env, CAIRN_ADMIN_TOKEN: this.o.adminToken });
    let child: EngineChild;
    try {
      child = this.o.spawn(this.o.entry, this.o.args, env, engineNodeFlags(env));
    } catch (err) {
      this.o.log(`engine failed to spawn: ${(err as Error).message}`);
      this.scheduleRestart(0);
      return;
    }
    this.child = child;
    if (child.stdout) {
      createInterface({ input: child.stdout }).on('line', (line) => {
        // The workbench line carries the admin token; logs must not.
        this.o.log(line.replace(/#token=\S+/, '#token=<redacted>'));
        const p = parseEngineLine(line);
        if (p.workbench) {
          // An engine that already ran (a `cairn serve`, or one a stdio client started) has its own
          // admin token: the engine child attached to it prints that one in the address line.
          const given = /#token=([^&\s]+)/.exec(new URL(p.workbench).hash);
          this.addr = {
            baseUrl: new URL(p.workbench).origin,
            adminToken: given ? decodeURIComponent(given[1]) : (this.tokenFromFile() ?? this.o.adminToken),
          };
          this.setState('running');
          this.emit('address', this.addr);
        }
        if (p.mcp) this.mcpUrl = p.mcp;
      });
    }
    if (child.stderr) createInterface({ input: child.stderr }).on('line', (line) => this.o.log(line));
    child.once('exit', (code) => {
      this.child = null;
      this.lastExitCode = code;
      this.addr = null;
      this.emit('address', null);
      if (this.state === 'stopping' || this.state === 'stopped') return;
      this.o.log(`engine exited with code ${code}`);
      this.scheduleRestart(Date.now() - started);
    });
  }

  private tokenFromFile(): string | null {
    if (!this.o.tokenFile) return null;
    try {
      return readFileSync(this.o.tokenFile, 'utf8').trim() || null;
    } catch {
      return null;
    }
  }

  private scheduleRestart(ranMs: number): void {
    if (ranMs >= this.o.healthyAfterMs) this.quickCrashes = 0;
    this.quickCrashes += 1;
    if (this.quickCrashes > this.o.maxQuickCrashes) {
      this.setState('failed');
      return;
    }
    const delay = Math.min(this.o.maxBackoffMs, this.o.initialBackoffMs * 2 ** (this.quickCrashes - 1));
    this.setState('backoff');
    this.emit('restart-scheduled', delay);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.launch();
    }, delay);
  }

  /** Restart on demand (tray, after a fatal error): resets the crash count. */
  restart(): void {
    void this.stop().then(() => this.start());
  }

  /** Asks the engine to exit (SIGTERM: it closes the index and the server) and waits for it. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const child = this.child;
    this.setState('stopping');
    if (child) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.o.stopTimeoutMs);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        child.kill();
      });
    }
    this.child = null;
    this.addr = null;
    this.setState('stopped');
  }
}
