/**
 * Damage to the index and the running engine's repair of it. Without this the workbench would
 * show folders as fresh while every search fails, and a repair (minutes of re-indexing) would look
 * like indexing started on its own.
 */
import type { EngineStatus } from '../../../main/common/status';
import { ErrorNote } from '../components/ErrorNote';
import { ago } from './time';

const REPAIR_STATE: Record<string, string> = {
  moving_aside: 'moving the damaged index aside',
  rebuilding: 'building a new index in the background; folders read "indexing" until they are done',
  failed: 'the repair failed',
};

export function IndexHealth({ engine }: { engine: EngineStatus }) {
  const repair = engine.index_repair;
  if (repair && repair.state === 'done') {
    return (
      <p className="muted" data-testid="index-repair" data-state="done">
        The index was found damaged and repaired {ago(repair.finished_at)}: every folder was indexed again.
        {repair.moved_to ? (
          <>
            {' '}
            The damaged index was kept at <code>{repair.moved_to}</code>; delete it when you no longer need it.
          </>
        ) : null}
      </p>
    );
  }
  if (repair) {
    return (
      <div data-testid="index-repair" data-state={repair.state}>
        <ErrorNote error={repair.error ?? repair.damage} testId="index-repair-error" />
        <p className="muted">Repairing the index: {REPAIR_STATE[repair.state]}.</p>
      </div>
    );
  }
  return engine.index_damage ? <ErrorNote error={engine.index_damage} testId="index-damage" /> : null;
}
