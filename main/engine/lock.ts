import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { CairnError } from './errors.js';

export interface LockInfo {
  pid: number;
  started: string;
  /**
   * Where a running `cairn serve` answers, so CLI commands can go through it. The admin token is
   * not here: it is in its own 0600 file (admin-token), never in a file with other uses.
   */
  url?: string;
  /** Its MCP endpoint, so `cairn mcp --stdio` can bridge to it. */
  mcp?: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function readLock(file: string): Promise<LockInfo | null> {
  try {
    const info = JSON.parse(await readFile(file, 'utf8')) as LockInfo;
    return typeof info.pid === 'number' && alive(info.pid) && info.pid !== process.pid ? info : null;
  } catch {
    return null;
  }
}

/**
 * One engine per data folder: two writers would race on the index. The lock file names the
 * owner's pid (a stale lock from a killed engine is taken over) and, for `cairn serve`, its
 * address; it is written readable by the user only.
 */
export class EngineLock {
  private constructor(private readonly file: string, private info: LockInfo) {}

  static async acquire(file: string): Promise<EngineLock> {
    const info: LockInfo = { pid: process.pid, started: new Date().toISOString() };
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
          throw new CairnError('engine_locked', `Another Cairn engine (pid ${owner.pid}, started ${owner.started}) is using this data folder.`, {
            remedy: owner.url ? `It serves at ${owner.url}; CLI commands go through it.` : 'Stop it first, or set CAIRN_HOME to another folder.',
            details: { pid: owner.pid },
          });
        }
        await rm(file, { force: true });
      }
    }
    throw new CairnError('engine_locked', `Cannot take the engine lock ${file}.`);
  }

  async update(extra: Partial<LockInfo>): Promise<void> {
    this.info = { ...this.info, ...extra };
    await writeFile(this.file, JSON.stringify(this.info), { mode: 0o600 });
  }

  async release(): Promise<void> {
    const owner = await readFile(this.file, 'utf8').then((t) => JSON.parse(t) as LockInfo).catch(() => null);
    if (owner?.pid === process.pid) await rm(this.file, { force: true });
  }
}
