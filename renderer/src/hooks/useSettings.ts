/** The engine's settings, loaded on mount and again after a reconnect; `save` patches and reloads. */
import { useCallback, useEffect, useState } from 'react';
import type { ErrorBody } from '../../../main/common/errors';
import { api } from '../api/endpoints';
import { loadErrorOf } from '../api/client';
import { useEngine } from './engine-context';

export function useSettings() {
  const { epoch, refresh } = useEngine();
  const [values, setValues] = useState<Record<string, unknown> | null>(null);
  const [loadError, setLoadError] = useState<ErrorBody | null>(null);

  const load = useCallback(async () => {
    try {
      const r = await api.settings();
      setValues(r.values);
      setLoadError(null);
    } catch (err) {
      setLoadError(loadErrorOf(err));
    }
  }, []);

  // The first load is written out rather than `load()` so that no state is set synchronously in the
  // effect (react-hooks/set-state-in-effect); a load that lands after unmount or a newer epoch is dropped.
  useEffect(() => {
    let current = true;
    api.settings().then(
      (r) => {
        if (!current) return;
        setValues(r.values);
        setLoadError(null);
      },
      (err: unknown) => {
        if (current) setLoadError(loadErrorOf(err));
      },
    );
    return () => {
      current = false;
    };
  }, [epoch]);

  /** Throws ApiError (config_invalid with details) when the engine refuses the patch. */
  const save = useCallback(
    async (patch: Record<string, unknown>) => {
      const r = await api.updateSettings({ values: patch });
      if (r && typeof r === 'object' && 'values' in r) setValues(r.values);
      else await load();
      await refresh();
    },
    [load, refresh],
  );

  return { values, loadError, save, reload: load };
}
