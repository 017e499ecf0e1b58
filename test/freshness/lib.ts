/**
 * Helpers for the freshness and fault tests: a seeded PRNG, a generated folder whose every file
 * version carries a unique token (so a search for it says exactly which version the index holds),
 * and the `cairn` CLI as a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** mulberry32: small, fast and reproducible from one seed (printed by tests that use it). */
export function prng(seed: number): {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
} {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
  };
}

/** Lower-case letters and digits only: one word for the full-text tokenizer, never split or stemmed apart. */
export function token(id: number, version: number): string {
  return `qz${id}v${version}k`;
}

const KINDS = ['md', 'ts', 'py'] as const;

export function relFor(id: number, dir = ''): string {
  const ext = KINDS[id % KINDS.length];
  return `${dir || ['docs', 'src', 'lib/util'][id % 3]}/f${id}.${ext}`;
}

/** A small file of the kind its extension says, with its version token in the text. */
export function contentFor(rel: string, id: number, version: number): string {
  const tok = token(id, version);
  if (rel.endsWith('.md')) {
    return `# Note ${id}\n\nThis note mentions ${tok} in its first section about gardening.\n\n## Details\n\nMore words about item ${id}, version ${version}, and the weather.\n`;
  }
  if (rel.endsWith('.ts')) {
    return `// ${tok}\nexport function compute${id}(a: number): number {\n  const label = '${tok}';\n  return a * ${version + 1} + label.length;\n}\n`;
  }
  return `# ${tok}\ndef compute_${id}(a):\n    """Multiply by ${version + 1}; marker ${tok}."""\n    return a * ${version + 1}\n`;
}

/** The expected content of a folder: rel path -> id and version (the token identifies both). */
export interface FileModel {
  id: number;
  version: number;
}

export class FolderModel {
  readonly files = new Map<string, FileModel>();

  /** `firstId` keeps the tokens of two folders in one index apart. */
  constructor(
    readonly root: string,
    private nextId = 0,
  ) {}

  abs(rel: string): string {
    return join(this.root, rel);
  }

  async add(dir?: string): Promise<string> {
    const id = this.nextId++;
    const rel = relFor(id, dir);
    await this.write(rel, { id, version: 0 });
    return rel;
  }

  async edit(rel: string): Promise<void> {
    const f = this.files.get(rel);
    if (!f) throw new Error(`no ${rel}`);
    await this.write(rel, { id: f.id, version: f.version + 1 });
  }

  async remove(rel: string): Promise<void> {
    this.files.delete(rel);
    await rm(this.abs(rel), { force: true });
  }

  /** A rename keeps the content (and so its token) byte for byte. */
  async rename(rel: string, to: string): Promise<void> {
    const f = this.files.get(rel);
    if (!f) throw new Error(`no ${rel}`);
    const { rename } = await import('node:fs/promises');
    await mkdir(dirname(this.abs(to)), { recursive: true });
    await rename(this.abs(rel), this.abs(to));
    this.files.delete(rel);
    this.files.set(to, f);
  }

  content(rel: string): string {
    const f = this.files.get(rel);
    if (!f) throw new Error(`no ${rel}`);
    return contentFor(rel, f.id, f.version);
  }

  private async write(rel: string, f: FileModel): Promise<void> {
    await mkdir(dirname(this.abs(rel)), { recursive: true });
    await writeFile(this.abs(rel), contentFor(rel, f.id, f.version));
    this.files.set(rel, f);
  }
}

/** The chunk text behind a numbered snippet (`12│ text` per line). */
export function snippetText(snippet: string): string {
  return snippet
    .split('\n')
    .map((l) => l.replace(/^\s*\d+│ ?/, ''))
    .join('\n');
}

export interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `cairn <args>` from this checkout with its own data folder. */
export function cairn(args: string[], home: string, env: Record<string, string> = {}): Cli {
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'main/engine/cli/main.ts'), ...args], {
    cwd: REPO,
    env: { ...process.env, CAIRN_HOME: home, LANCEDB_LOG: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Polls until `check` returns a value (not undefined) or the deadline passes; then throws with `what`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
