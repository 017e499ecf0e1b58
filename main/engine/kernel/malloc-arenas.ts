/**
 * glibc's malloc for the engine process, which must be chosen before the process starts (glibc
 * reads it once, at the first allocation): every spawn of the engine (the desktop shell's
 * supervisor, the stdio door's background start, `npm start`) passes its environment through here.
 *
 * By default glibc gives each thread that allocates under contention an arena of its own, up to 8
 * per core, and keeps what each arena once held. The engine runs dozens of native threads (LanceDB's
 * runtime, ONNX Runtime in each embedding worker, libuv), so a burst of searches or an indexing run
 * leaves many arenas holding memory nothing uses. Two arenas cut the peak under 32 clients from a
 * cold start from about 540 to 470 MB at the same 600 answers (bench/results/concurrency.json).
 */
export const ENGINE_MALLOC_ARENA_MAX = '2';

/** `env` with MALLOC_ARENA_MAX set for the engine, unless `env` or the inherited environment chose one. */
export function withEngineMallocArenas<T extends Record<string, string | undefined>>(
  env: T,
  inherited: NodeJS.ProcessEnv = process.env,
): T & { MALLOC_ARENA_MAX: string } {
  const chosen = env.MALLOC_ARENA_MAX ?? inherited.MALLOC_ARENA_MAX;
  return { ...env, MALLOC_ARENA_MAX: chosen && chosen.length > 0 ? chosen : ENGINE_MALLOC_ARENA_MAX };
}
