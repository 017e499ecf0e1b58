/** Remounts the MCP server so saved `applies: remount` settings take effect; shared by the notices. */
import { api } from '../api/endpoints';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';
import { ErrorNote } from './ErrorNote';

export function RemountButton({ testId = 'remount' }: { testId?: string }) {
  const { refresh } = useEngine();
  const remount = useAction();
  return (
    <>
      <button
        type="button"
        className="btn primary"
        disabled={remount.busy}
        data-testid={testId}
        onClick={() =>
          remount.run(async () => {
            await api.restartMcp();
            await refresh();
          })
        }
      >
        {remount.busy ? 'Remounting…' : 'Remount the MCP server'}
      </button>
      {remount.error ? <ErrorNote error={remount.error} /> : null}
    </>
  );
}
