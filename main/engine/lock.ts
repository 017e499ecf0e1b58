import { readFileSync } from 'node:fs';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { CairnError } from './errors.js';

export interface LockInfo {
  pid: number;
  started: string;
  /**
   * Who the pid was when the lock was taken (Linux: the boot and the process's start time in
   * clock ticks since boot). A pid reused by another process after a reboot or a crash differs
   * in one of them, so its lock is stale although the pid is alive.
   */
  boot?: string;
  proc_start?: string;
  /**
   * Where a running `cairn serve` answers, so CLI commands can go through it. The admin token is
   * not here: it is in its own 0600 file (admin-token), never in a file with other uses.
   */
  url?: string;
  /** Its MCP endpoint, so `cairn mcp --stdio` can bridge to it. */
  mcp?: string;
}

/** The process exists (EPERM: it does, under another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Field 22 of /proc/PID/stat (after the parenthesised command name, which may hold spaces). */
function procStart(pid: number | 'self'): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function bootId(): string | undefined {
  return readProc('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
}

/** This process's identity for the lock (empty where /proc does not exist). */
export function selfIdentity(): Pick<LockInfo, 'boot' | 'proc_start'> {
  const boot = bootId();
  const start = procStart('self');
  return { ...(boot ? { boot } : {}), ...(start ? { proc_start: start } : {}) };
}

/**
 * Whether the lock's pid still is the engine that wrote it. Recorded identity decides where there
 * is one; a lock from before identities were recorded is trusted only to a process whose command
 * line could be an engine (node, electron, cairn).
 */
function sameOwner(info: LockInfo): boolean {
  if (info.boot && bootId() && info.boot !== bootId()) return false;
  const now = procStart(info.pid);
  if (info.proc_start && now !== undefined) return info.proc_start === now;
  const cmdline = readProc(`/proc/${info.pid}/cmdline`);
  if (cmdline === null) return true;
  return /node|electron|cairn/i.test(cmdline.split('\0').join(' '));
}

export async function readLock(file: string): Promise<LockInfo | null> {
  try {
    const info = JSON.parse(await readFile(file, 'utf8')) as LockInfo;
    return typeof info.pid === 'number' && alive(info.pid) && info.pid !== process.pid && sameOwner(info) ? info : null;
  } catch {
    return null;
  }
}

/**
 * One engine per data folder: two writers would race on the index. The lock file names the
 * owner's pid and identity (a stale lock from a killed engine, or one whose pid now belongs to
 * another process, is taken over) and, for `cairn serve`, its address; it is written readable by
 * the user only.
 */
export class EngineLock {
  /** The last update's write: a release waits for it, or that write would bring the file back. */
  private writing: Promise<void> = Promise.resolve();
  private released = false;

  private constructor(
    private readonly file: string,
    private info: LockInfo,
  ) {}

  static async acquire(file: string): Promise<EngineLock> {
    const info: LockInfo = { pid: process.pid, started: new Date().toISOString(), ...selfIdentity() };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fh = await open(file, 'wx', 0o600);
        await fh.writeFile(JSON.stringify(info));
        await fh.close();
        return new EngineLock(file, info);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = await readLock(file);
        if (owner) {
          throw new CairnError(
            'engine_locked',
            `Another Cairn engine (pid ${owner.pid}, started ${owner.started}) is using this data folder.`,
            {
              remedy: owner.url
                ? `It serves at ${owner.url}; CLI commands go through it.`
                : 'Stop it first, or set CAIRN_HOME to another folder.',
              details: { pid: owner.pid },
            },
          );
        }
        await rm(file, { force: true });
      }
    }
    throw new CairnError('engine_locked', `Cannot take the engine lock ${file}.`);
  }

  async update(extra: Partial<LockInfo>): Promise<void> {
    if (this.released) return;
    this.info = { ...this.info, ...extra };
    const text = JSON.stringify(this.info);
    this.writing = this.writing
      .catch(() => undefined)
      .then(() => (this.released ? undefined : writeFile(this.file, text, { mode: 0o600 })));
    await this.writing;
  }

  async release(): Promise<void> {
    this.released = true;
    await this.writing.catch(() => undefined);
    const owner = await readFile(this.file, 'utf8')
      .then((t) => JSON.parse(t) as LockInfo)
      .catch(() => null);
    if (owner?.pid === process.pid) await rm(this.file, { force: true });
  }
}
