/**
 * Opening the real engine for a benchmark. The engine is imported lazily so that the bench's pure
 * parts (report, metrics, corpora) work before the engine exists, and a checkout without it records
 * `skipped` instead of crashing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineApi } from '../../main/engine/api.js';
import type { Engine } from '../../main/engine/engine.js';
import { SkipError } from './benchmark.js';

/** The composition root itself: benchmarks also use what it offers beyond `EngineApi` (its model). */
export type BenchEngine = Engine;

interface EngineModule {
  openEngine(opts: { home: string }): Promise<Engine>;
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

export async function openBenchEngine(
  root: string,
  home: string,
  settings: Record<string, unknown> = {},
): Promise<BenchEngine> {
  const { openEngine } = await engineModule(root);
  const engine = await openEngine({ home });
  if (Object.keys(settings).length) engine.settings.set(settings);
  return engine;
}

/**
 * Adds a folder, indexes it and waits for the job (text, then vectors: the engine computes vectors
 * in the same job, after the text). Fails when the job fails or, if vectors are wanted, when any
 * chunk is left without one (e.g. the model could not load). Without `vectors`, the job is cancelled
 * as soon as its text is written: the sparse leg is complete then, and embedding takes minutes.
 */
export async function indexFolderAndWait(
  engine: EngineApi,
  folder: string,
  opts: { vectors: boolean; textOnly?: boolean; onProgress?: (line: string) => void } = { vectors: true },
): Promise<{ files: number; chunks: number; embedded: number }> {
  const existing = (await engine.folders()).find((f) => f.path === folder);
  if (!existing) await engine.addFolder({ path: folder, ...(opts.textOnly ? { text_only: true } : {}) });
  // A reused index from an older chunker or model must be rebuilt, or searches fail typed.
  const mismatch = existing ? (await engine.status()).contract_mismatch : null;
  if (mismatch) opts.onProgress?.(`  … rebuilding: ${mismatch.message}`);
  const job = await engine.indexFolder(folder, !existing ? 'create' : mismatch ? 'rebuild' : 'update');
  const timer = opts.onProgress
    ? setInterval(() => {
        const j = engine.job(job.id);
        if (j)
          opts.onProgress?.(
            `  … ${j.state} ${j.progress.phase} files ${j.progress.files_done}/${j.progress.files_total} chunks ${j.progress.chunks_done}/${j.progress.chunks_total} (${j.progress.throughput}/s)`,
          );
      }, 15_000)
    : null;
  let cancelled = false;
  try {
    // Without vectors wanted, the job stops once the text is in (sparse runs skip minutes of embedding).
    if (!opts.vectors) {
      for (;;) {
        const j = engine.job(job.id);
        if (!j || j.state === 'done' || j.state === 'failed' || j.state === 'cancelled') break;
        if (j.progress.phase === 'embedding') {
          engine.jobAction(j.id, 'cancel');
          cancelled = true;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    await engine.idle();
  } finally {
    if (timer) clearInterval(timer);
  }
  const j = engine.job(job.id);
  if (j && j.state !== 'done' && !(cancelled && j.state === 'cancelled'))
    throw new Error(`index job for ${folder} ended ${j.state}: ${j.error?.message ?? 'no reason given'}`);
  const f = (await engine.folders()).find((x) => x.path === folder);
  if (!f) throw new Error(`folder ${folder} vanished from the engine`);
  if (f.state === 'error') throw new Error(`indexing ${folder} failed: ${f.reason ?? 'unknown reason'}`);
  if (opts.vectors && f.embedded_chunks < f.chunks) {
    const st = await engine.status();
    throw new Error(
      `${f.chunks - f.embedded_chunks} of ${f.chunks} chunks have no vector (model ${st.model.id}: ${st.model.state}${st.model.error ? `, ${st.model.error}` : ''})`,
    );
  }
  return { files: f.files, chunks: f.chunks, embedded: f.embedded_chunks };
}
