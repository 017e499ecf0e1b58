/**
 * Opening the real engine for a benchmark. The engine is imported lazily so that the bench's pure
 * parts (report, metrics, corpora) work before the engine exists, and a checkout without it records
 * `skipped` instead of crashing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineApi } from '../../main/engine/api.js';
import { SkipError } from './benchmark.js';

export type BenchEngine = EngineApi;

interface EngineModule {
  openEngine(opts: { home: string }): Promise<EngineApi>;
}

let cached: EngineModule | undefined;

export async function engineModule(root: string): Promise<EngineModule> {
  if (cached) return cached;
  const file = join(root, 'main/engine/engine.ts');
  if (!existsSync(file)) throw new SkipError('the engine (main/engine/engine.ts) is not in this checkout yet');
  // A computed specifier keeps the bench type-checking while engine.ts is still being written.
  const spec = '../../main/engine/engine.js';
  const mod = (await import(spec)) as Partial<EngineModule>;
  if (typeof mod.openEngine !== 'function') throw new Error('main/engine/engine.ts does not export openEngine');
  cached = mod as EngineModule;
  return cached;
}

export async function openBenchEngine(root: string, home: string, settings: Record<string, unknown> = {}): Promise<EngineApi> {
  const { openEngine } = await engineModule(root);
  const engine = await openEngine({ home });
  if (Object.keys(settings).length) engine.settings.set(settings);
  return engine;
}

/**
 * Adds a folder, indexes it and waits until every chunk has its vector (or only until the text is
 * indexed, for sparse-only timings). Returns the folder's chunk counts.
 */
export async function indexFolderAndWait(
  engine: EngineApi,
  folder: string,
  opts: { vectors: boolean; timeoutMs?: number; onProgress?: (line: string) => void } = { vectors: true },
): Promise<{ files: number; chunks: number; embedded: number }> {
  const existing = (await engine.folders()).find((f) => f.path === folder);
  if (!existing) await engine.addFolder({ path: folder });
  await engine.indexFolder(folder, existing ? 'update' : 'create');
  return waitIndexed(engine, folder, opts);
}

export async function waitIndexed(
  engine: EngineApi,
  folder: string,
  opts: { vectors: boolean; timeoutMs?: number; onProgress?: (line: string) => void },
): Promise<{ files: number; chunks: number; embedded: number }> {
  const deadline = Date.now() + (opts.timeoutMs ?? 4 * 3600_000);
  let lastLog = 0;
  for (;;) {
    const f = (await engine.folders()).find((x) => x.path === folder);
    if (!f) throw new Error(`folder ${folder} vanished from the engine`);
    if (f.state === 'error') throw new Error(`indexing ${folder} failed: ${f.reason ?? 'unknown reason'}`);
    const textDone = f.state !== 'indexing' || (f.progress?.phase === 'embedding');
    const running = engine.jobs().some((j) => j.folder === folder && (j.state === 'running' || j.state === 'queued') && j.kind !== 'embed');
    if (textDone && !running && f.chunks > 0 && (!opts.vectors || f.embedded_chunks >= f.chunks)) {
      return { files: f.files, chunks: f.chunks, embedded: f.embedded_chunks };
    }
    if (f.state === 'fresh' && !running && f.chunks === 0) return { files: f.files, chunks: 0, embedded: 0 };
    if (Date.now() > deadline) throw new Error(`timed out indexing ${folder}: ${f.chunks} chunks, ${f.embedded_chunks} embedded`);
    if (opts.onProgress && Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      opts.onProgress(`  … ${f.state} ${f.progress?.phase ?? ''} files ${f.files} chunks ${f.chunks} embedded ${f.embedded_chunks}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
