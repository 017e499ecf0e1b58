import { readFileSync } from 'node:fs';
import { link, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { CairnError } from './errors.js';
import { scratchName, writeFileAtomic } from './kernel/atomic-write.js';

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
    for (let attempt = 0; attempt < 50; attempt++) {
      if (await create(file, JSON.stringify(info))) return new EngineLock(file, info);
      const text = await readFile(file, 'utf8').catch(() => null);
      if (text === null) continue;
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
      // Stale. Engines starting together all judge it so: only the one holding the takeover
      // mark deletes it, and only while it still is that stale lock, so none deletes the lock
      // another has just taken.
      if (await takeOver(file, text)) {
        const took = await create(file, JSON.stringify(info)).finally(() => rm(takeoverFile(file), { force: true }));
        if (took) return new EngineLock(file, info);
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
      // Whole (a rename over it): a reader never finds the lock empty or half written.
      .then(() => (this.released ? undefined : writeFileAtomic(this.file, text, { mode: 0o600 })));
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

/**
 * Creates the lock file with its whole content in one step, or returns false when it exists. An
 * exclusive open and then a write left a moment where the file was there but empty: a second
 * engine starting then read no owner, judged the lock stale, deleted it and took it too (two stdio
 * clients started together each ran an engine on the same index). A hard link of a file already
 * written is created whole or not at all; where links are refused (some network and FAT file
 * systems) the exclusive open stays, and an empty lock is read as "being written" (see below).
 */
async function create(file: string, text: string): Promise<boolean> {
  const tmp = scratchName(file);
  try {
    // Overwritten if a crashed process with this pid left one: the name is this process's alone now.
    await writeFile(tmp, text, { mode: 0o600 });
    try {
      await link(tmp, file);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw err;
    }
  } finally {
    await rm(tmp, { force: true });
  }
  try {
    const fh = await open(file, 'wx', 0o600);
    await fh.writeFile(text);
    await fh.close();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
}

function takeoverFile(file: string): string {
  return `${file}.takeover`;
}

/**
 * Takes the takeover mark and deletes the lock judged stale from `text` if it still holds that
 * text; true when the caller now holds the mark (and must create its lock, then drop the mark).
 * Only a mark holder deletes another engine's lock, and a stale lock does not change while it
 * waits (its owner is gone), so the check and the delete cannot be raced.
 */
async function takeOver(file: string, text: string): Promise<boolean> {
  // An empty or partial lock is one being written (by the open-and-write fallback): not stale
  // until it has stayed so for a while (a crash between the open and the write).
  if (!isLockText(text) && (await ageMs(file)) < PARTIAL_LOCK_MS) {
    await sleep(50);
    return false;
  }
  const mark = takeoverFile(file);
  if (!(await create(mark, String(process.pid)))) {
    // Another engine is taking over; a mark left by one that died meanwhile expires.
    if ((await ageMs(mark)) > PARTIAL_LOCK_MS) await rm(mark, { force: true });
    await sleep(20);
    return false;
  }
  const now = await readFile(file, 'utf8').catch(() => null);
  if (now === text) await rm(file, { force: true });
  return true;
}

async function ageMs(file: string): Promise<number> {
  return stat(file).then(
    (st) => Date.now() - st.mtimeMs,
    () => 0,
  );
}

/** How long a lock file may be empty or partial before it counts as stale. */
const PARTIAL_LOCK_MS = 2000;

function isLockText(text: string): boolean {
  try {
    return typeof (JSON.parse(text) as LockInfo).pid === 'number';
  } catch {
    return false;
  }
}
