import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type Engine, type EngineOptions } from '../../main/engine/engine.js';

/** A temporary data folder; removed by the returned cleanup. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `cairn-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A real engine over a temporary data folder, with the given settings applied first. */
export async function tempEngine(
  settings: Record<string, unknown> = {},
  opts: Partial<EngineOptions> = {},
): Promise<{ engine: Engine; home: string; cleanup: () => Promise<void> }> {
  const { dir, cleanup } = await tempDir('home');
  const engine = await openEngine({ home: dir, ...opts });
  if (Object.keys(settings).length > 0) engine.settings.set(settings);
  return {
    engine,
    home: dir,
    cleanup: async () => {
      await engine.close();
      await cleanup();
    },
  };
}

/** Indexes a folder to completion and fails loudly if the job did not finish cleanly. */
export async function indexNow(
  engine: Engine,
  folder: string,
  kind: 'create' | 'update' | 'rebuild' = 'update',
): Promise<void> {
  const job = await engine.indexFolder(folder, kind);
  await engine.idle();
  const done = engine.job(job.id);
  if (done?.state !== 'done')
    throw new Error(`indexing ${folder} ended ${done?.state}: ${JSON.stringify(done?.error)}`);
}
