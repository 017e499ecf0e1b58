/**
 * Engine-wide pause/resume of indexing, the same switch as the tray's. Pausing holds every job at
 * its next checkpoint, and jobs the watcher queues meanwhile wait too, so it is the way to keep
 * the machine quiet for a while without losing the changes seen.
 */
import { api } from '../api/endpoints';
import { ErrorNote } from '../components/ErrorNote';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';

export function PauseAllButton({ paused }: { paused: boolean }) {
  const { refresh } = useEngine();
  const action = useAction();
  const toggle = () =>
    action.run(async () => {
      await api.setPaused({ paused: !paused });
      await refresh();
    });
  return (
    <>
      {paused ? (
        <span className="pill stopped" data-testid="indexing-paused">
          paused
        </span>
      ) : null}
      <button
        type="button"
        className="btn small"
        onClick={toggle}
        disabled={action.busy}
        aria-pressed={paused}
        data-testid="pause-all"
      >
        {paused ? 'Resume indexing' : 'Pause indexing'}
      </button>
      {action.error ? <ErrorNote error={action.error} testId="pause-all-error" /> : null}
    </>
  );
}
