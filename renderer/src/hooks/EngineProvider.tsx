/**
 * Polls engine and MCP status for the whole workbench. A lost connection (engine restarting under
 * us) is a state of the app, not an error of a panel: the banner shows, polling continues with
 * backoff, and on return `epoch` is bumped so panels reload settings, key state and clients.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { EngineStatus, McpStatus } from '../../../main/common/index';
import type { ErrorBody } from '../../../main/common/errors';
import type { EngineAway } from '../../../main/common/engine-away';
import { api } from '../api/endpoints';
import { ApiError, ConnectionError, describeError } from '../api/client';
import { EngineContext, type EngineState, type Link } from './engine-context';

const FAST_MS = 1000;
const IDLE_MS = 3000;
const MAX_BACKOFF_MS = 5000;

export function EngineProvider({ children }: { children: ReactNode }) {
  const [link, setLink] = useState<Link>('connecting');
  const [engine, setEngine] = useState<EngineStatus | null>(null);
  const [mcp, setMcp] = useState<McpStatus | null>(null);
  const [error, setError] = useState<ErrorBody | null>(null);
  const [away, setAway] = useState<EngineAway | null>(null);
  const [epoch, setEpoch] = useState(0);
  const failures = useRef(0);
  const wasOffline = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const busy = useRef(false);

  const poll = useCallback(async (): Promise<number> => {
    try {
      const [e, m] = await Promise.all([api.engineStatus(), api.mcpStatus()]);
      setEngine(e);
      setMcp(m);
      setError(null);
      setAway(null);
      setLink('online');
      failures.current = 0;
      if (wasOffline.current) {
        wasOffline.current = false;
        setEpoch((n) => n + 1);
      }
      const active =
        e.jobs.some((j) => j.state === 'running' || j.state === 'queued') ||
        e.folders.some((f) => f.state === 'indexing') ||
        e.model.state === 'downloading' ||
        e.model.state === 'loading';
      return active ? FAST_MS : IDLE_MS;
    } catch (err) {
      if (err instanceof ConnectionError) {
        failures.current += 1;
        wasOffline.current = true;
        setAway(err.away);
        setLink('offline');
        return Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(failures.current, 4));
      }
      if (err instanceof ApiError && err.status === 401) {
        setLink('unauthorized');
        setError(err.body);
        return IDLE_MS;
      }
      setError(describeError(err));
      return IDLE_MS;
    }
  }, []);

  const schedule = useCallback(
    function schedule(ms: number) {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(async () => {
        if (busy.current) return schedule(FAST_MS);
        busy.current = true;
        const next = await poll();
        busy.current = false;
        schedule(next);
      }, ms);
    },
    [poll],
  );

  useEffect(() => {
    schedule(0);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [schedule]);

  const refresh = useCallback(async () => {
    const next = await poll();
    schedule(next);
  }, [poll, schedule]);

  const value: EngineState = useMemo(
    () => ({ link, away, engine, mcp, error, epoch, refresh }),
    [link, away, engine, mcp, error, epoch, refresh],
  );
  return <EngineContext.Provider value={value}>{children}</EngineContext.Provider>;
}
