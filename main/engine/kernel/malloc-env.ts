/**
 * glibc's malloc settings for the engine process, which must be chosen before the process starts
 * (glibc reads them once, at its first allocation): every spawn of the engine (the desktop shell's
 * supervisor, the stdio door's background start, `npm start`) passes its environment through here.
 *
 * By default glibc raises its mmap threshold each time a large block is freed (up to 32 MB), so
 * the large buffers of searches and embedding batches soon come from the heaps of its per-thread
 * arenas, and a heap gives memory back only from its top. The engine runs dozens of native threads
 * (LanceDB's runtime, ONNX Runtime in each embedding worker, libuv), so a burst of searches left
 * hundreds of MB held that nothing used. Fixing both thresholds at glibc's initial 128 KiB keeps
 * large blocks in mmap (returned when freed) and trims the heaps: 32 clients from a cold start, 1000
 * calls, peak 521 and 447 MB against 642 and 604 MB, answered in 31.0 and 25.6 s against 36.1 and
 * 31.6 s (interleaved, load 4-5 on 2 cores). Capping the arenas instead (MALLOC_ARENA_MAX=2) saved
 * as much but answered 11-72 % slower: the threads then wait on each other's arena locks.
 *
 * Trimming at 128 KiB gave each heap's top back and took it again at once while indexing: twice
 * glibc's page faults, and a fifth more CPU. A 1 MiB pad (what a heap keeps above its top when it
 * grows or trims) halves that churn for at most 1 MiB per heap: 2,000 Markdown files (25k chunks)
 * were searchable in 6.6 s against 7.8 s (medians of 11 interleaved pairs, each pair faster),
 * peaking at 320 against 312 MB; 32 clients from a cold start peaked 7 MB higher, as fast.
 */
export const ENGINE_MALLOC_ENV = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_TOP_PAD_: '1048576',
} as const;

type MallocKey = keyof typeof ENGINE_MALLOC_ENV;

/** `env` with the engine's malloc settings, each unless `env` or the inherited environment chose it. */
export function withEngineMallocEnv<T extends Record<string, string | undefined>>(
  env: T,
  inherited: NodeJS.ProcessEnv = process.env,
): T & Record<MallocKey, string> {
  const out: Record<string, string | undefined> = { ...env };
  for (const [key, value] of Object.entries(ENGINE_MALLOC_ENV)) {
    const chosen = env[key] ?? inherited[key];
    out[key] = chosen && chosen.length > 0 ? chosen : value;
  }
  return out as T & Record<MallocKey, string>;
}
