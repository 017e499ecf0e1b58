/**
 * What the desktop shell says when the page asks for the engine and there is none to ask: the
 * supervisor's state (starting, restarting after an exit, given up, stopping). The page is served
 * by the shell, so unlike the headless workbench it can be open before the engine ever answered;
 * it needs the shell's word to say "starting" rather than "not answering", and what to do when the
 * engine cannot start at all. One wording for the banner and the status card.
 */

/** On the shell's 503 for `app://workbench/api/*` while it has no engine to forward to. */
export const ENGINE_AWAY_HEADER = 'X-Cairn-Engine';

export type EngineAwayState = 'starting' | 'restarting' | 'failed' | 'stopping';

export interface EngineAway {
  engine: EngineAwayState;
  /** Exits in a row, each soon after its start (the supervisor gives up after a few). */
  exits: number;
  /** The last exit's code; null when none exited yet or it was killed by a signal. */
  last_exit_code: number | null;
}

export interface EngineAwayText {
  /** The pill: "starting", "restarting", "could not start", "stopping". */
  pill: string;
  message: string;
  remedy?: string;
  /** Whether it is trouble (failed, restarting) or the normal start. */
  severity: 'info' | 'warn' | 'error';
}

const times = (n: number) => (n === 1 ? 'once' : `${n} times`);

export function describeEngineAway(a: EngineAway): EngineAwayText {
  const code = a.last_exit_code === null ? '' : ` (last exit code ${a.last_exit_code})`;
  switch (a.engine) {
    case 'starting':
      return {
        pill: 'starting',
        severity: 'info',
        message:
          'Starting the engine… Folders, search and settings appear once it answers; the first start can take a few seconds.',
      };
    case 'restarting':
      return {
        pill: 'restarting',
        severity: 'warn',
        message: `The engine stopped ${times(a.exits)} in a row${code}; Cairn starts it again in a moment.`,
      };
    case 'failed':
      return {
        pill: 'could not start',
        severity: 'error',
        message: `The engine could not be started: it stopped ${times(a.exits)} in a row soon after starting${code}, so Cairn stopped trying. Agents cannot reach your folders until it runs.`,
        remedy:
          "Choose Restart engine in Cairn's tray menu, or quit Cairn and open it again. If it keeps failing, start Cairn from a terminal to see the engine's output.",
      };
    case 'stopping':
      return {
        pill: 'stopping',
        severity: 'warn',
        message: 'The engine is stopping (Cairn is quitting or restarting it).',
      };
  }
}

/** The shell's report, read back from its answer; null for anything else (a plain 502, a proxy). */
export function engineAwayOf(header: string | null, body: unknown): EngineAway | null {
  if (!header) return null;
  const b = body as Partial<EngineAway> | undefined;
  const states: EngineAwayState[] = ['starting', 'restarting', 'failed', 'stopping'];
  if (!b || !states.includes(b.engine as EngineAwayState) || b.engine !== header) return null;
  return {
    engine: b.engine as EngineAwayState,
    exits: typeof b.exits === 'number' ? b.exits : 0,
    last_exit_code: typeof b.last_exit_code === 'number' ? b.last_exit_code : null,
  };
}
