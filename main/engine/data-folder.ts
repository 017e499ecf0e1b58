/**
 * The part of opening an engine that needs no index: the data folder, its settings and its lock.
 * Kept apart from engine.ts (which loads LanceDB, Arrow and the indexer) so that `cairn serve`
 * can take the lock and start listening before those are even imported.
 */
import { chmod, mkdir, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { dataPaths, type DataPaths } from './config/paths.js';
import { SettingsStore } from './config/settings-store.js';
import { EngineLock } from './lock.js';

export interface DataFolder {
  paths: DataPaths;
  settings: SettingsStore;
  /** Null when the caller opened without the lock (`lock: false`). */
  lock: EngineLock | null;
}

/**
 * The data folder holds the index (text of every indexed file), the key and the admin token:
 * only its owner may enter it. Also applied to a folder made by an older version (or by hand)
 * with looser modes, but only to what this user owns (a shared CAIRN_HOME is left to its owner).
 */
async function makePrivate(path: string, mode: number): Promise<void> {
  if (process.platform === 'win32') return;
  const st = await stat(path).catch(() => null);
  if (!st || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o777) === mode) return;
  await chmod(path, mode);
}

export async function takeDataFolder(home: string, opts: { lock?: boolean } = {}): Promise<DataFolder> {
  // LanceDB's full-text index writer deadlocks (every thread parked, for good) when its CPU pool
  // has one thread, which is what it picks on two cores or fewer (lancedb/lancedb#3568): here a
  // 100k-chunk folder hung in its first compaction. Read when the pool starts, so set it first.
  if (!process.env.LANCE_CPU_THREADS && availableParallelism() <= 2) process.env.LANCE_CPU_THREADS = '2';
  const paths = dataPaths(resolve(home));
  await mkdir(paths.root, { recursive: true, mode: 0o700 });
  await makePrivate(paths.root, 0o700);
  await makePrivate(paths.config, 0o600);
  const settings = new SettingsStore(paths.root);
  const lock = opts.lock === false ? null : await EngineLock.acquire(paths.lock);
  return { paths, settings, lock };
}
