/**
 * The engine process's young generation, which V8 sizes once, when the process starts (unlike the
 * old generation's growth, kernel/heap-growth.ts, it cannot be set from inside): every spawn of
 * the engine passes these flags to its Node (the desktop shell's supervisor as the utility
 * process's execArgv, the stdio door's background start, `npm start`). Whether Electron's utility
 * process applies a V8 heap flag given as execArgv could not be checked here (no Electron binary);
 * at worst it is ignored and that engine keeps V8's default.
 *
 * By default each of the main thread's two semi-spaces grows to 16 MB, and an engine fills them:
 * indexing and searches allocate briskly and keep little. Capped at 4 MB, scavenges come more
 * often and objects still in use are promoted sooner, so it trades CPU for memory (interleaved
 * runs, 2 shared cores):
 * - 2,000 notes (25k chunks) indexed: peak 308-334 MB against 350-357 MB; about 5 % more CPU (four
 *   pairs: 15.0 against 14.3 s, 8.2 against 7.9 s to searchable on average; the peers benchmark's
 *   own runs took 6.6-8.0 against 5.6-7.6 s).
 * - 32 clients on 2k chunks: peak 263-265 MB against 285-287 MB, 8 % longer for 1,000 calls (three
 *   pairs); on 100k chunks 571 against 588 MB with 20 % fewer answers in 65 s (one pair).
 * - At rest: 80 MB against 90 MB.
 * A desktop engine spends its day at rest or indexing now and then, rarely under 32 clients, and
 * sits beside the person's other programs, so memory wins. 8 MB saved only 5 MB at 32 clients.
 */
export const ENGINE_NODE_FLAGS = ['--max-semi-space-size=4'] as const;

/**
 * The flags for an engine process's command line, without those the person already chose for the
 * same setting in NODE_OPTIONS (a command-line flag would override it).
 */
export function engineNodeFlags(inherited: NodeJS.ProcessEnv = process.env): string[] {
  const chosen = inherited.NODE_OPTIONS ?? '';
  return ENGINE_NODE_FLAGS.filter((flag) => !chosen.includes(flag.slice(0, flag.indexOf('='))));
}
