/**
 * The MCP API key: whether one is set, generate/rotate (the engine returns the new key once),
 * reveal on demand, copy. The key is held in component state only while shown; it is never
 * written to storage by the page. In the desktop app the engine itself keeps the key in the OS
 * secret store (it asks the shell, which uses safeStorage), so the page has nothing to mirror.
 */
import { useEffect, useState } from 'react';
import { api } from '../api/endpoints';
import { CopyButton } from '../components/CopyButton';
import { ErrorNote } from '../components/ErrorNote';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';

export function ApiKeySection({ requireKey }: { requireKey: boolean }) {
  const { epoch, refresh } = useEngine();
  const [isSet, setIsSet] = useState<boolean | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const action = useAction();
  const { run } = action;

  useEffect(() => {
    void run(async () => setIsSet((await api.apiKey()).set));
  }, [run, epoch]); // reload on reconnect

  const rotate = () =>
    action.run(async () => {
      if (isSet && !window.confirm('Rotate the API key? Clients using the old key will be refused until updated.'))
        return;
      const r = await api.rotateApiKey({ action: isSet ? 'rotate' : 'generate' });
      setIsSet(true);
      setShown(r.key ?? null);
      await refresh();
    });

  const reveal = () =>
    action.run(async () => {
      const r = await api.apiKey({ reveal: true });
      setShown(r.key ?? null);
    });

  return (
    <div className="api-key" data-testid="api-key">
      <h3>API key</h3>
      <p data-testid="api-key-state">
        {isSet === null ? 'Checking…' : isSet ? 'A key is set.' : 'No key is set.'}
        {requireKey && isSet === false ? (
          <span className="warn-text"> ⚠ A key is required but none is set: every MCP request will be refused.</span>
        ) : null}
      </p>
      <div className="row">
        <button type="button" className="btn" onClick={rotate} disabled={action.busy} data-testid="api-key-rotate">
          {isSet ? 'Rotate key' : 'Generate key'}
        </button>
        {isSet ? (
          shown ? (
            <button type="button" className="btn" onClick={() => setShown(null)} data-testid="api-key-hide">
              Hide
            </button>
          ) : (
            <button type="button" className="btn" onClick={reveal} disabled={action.busy} data-testid="api-key-reveal">
              Reveal
            </button>
          )
        ) : null}
      </div>
      {shown ? (
        <p className="row">
          <label htmlFor="api-key-value" className="sr-only">
            API key
          </label>
          <input
            id="api-key-value"
            readOnly
            value={shown}
            className="mono wide"
            data-testid="api-key-value"
            onFocus={(e) => e.target.select()}
          />
          <CopyButton text={shown} testId="api-key-copy" />
        </p>
      ) : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </div>
  );
}
