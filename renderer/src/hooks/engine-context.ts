import { createContext, useContext } from 'react';
import type { EngineStatus, McpStatus } from '../../../main/common/index';
import type { ErrorBody } from '../../../main/common/errors';
import type { EngineAway } from '../../../main/common/engine-away';

export type Link = 'connecting' | 'online' | 'offline' | 'unauthorized';

export interface EngineState {
  link: Link;
  engine: EngineStatus | null;
  mcp: McpStatus | null;
  /** While offline in the desktop app: the shell's word on why (starting, restarting, given up). */
  away: EngineAway | null;
  /** The last error of the status poll that was not a lost connection. */
  error: ErrorBody | null;
  /** Bumped after every reconnect so panels can reload what they fetched once. */
  epoch: number;
  /** Poll now (after an action) instead of waiting for the next tick. */
  refresh(): Promise<void>;
}

export const EngineContext = createContext<EngineState | null>(null);

export function useEngine(): EngineState {
  const ctx = useContext(EngineContext);
  if (!ctx) throw new Error('useEngine outside <EngineProvider>');
  return ctx;
}
