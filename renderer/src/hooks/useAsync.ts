/** Runs an action, tracking busy state and a typed error for the panel that started it. */
import { useCallback, useState } from 'react';
import type { ErrorBody } from '../../../main/common/errors';
import { describeError } from '../api/client';

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorBody | null>(null);
  const run = useCallback(async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (err) {
      setError(describeError(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, setError };
}
