/** Indexing jobs with pause/resume/cancel; finished jobs are listed briefly for their outcome. */
import type { JobInfo } from '../../../main/common/status';
import { api } from '../api/endpoints';
import { ErrorNote } from '../components/ErrorNote';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';

export function JobsList({ jobs }: { jobs: JobInfo[] }) {
  const { refresh } = useEngine();
  const action = useAction();
  if (!jobs.length) return null;
  const act = (id: string, a: 'pause' | 'resume' | 'cancel') =>
    action.run(async () => {
      await api.jobAction({ id, action: a });
      await refresh();
    });
  const recent = [...jobs].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, 8);
  return (
    <div className="jobs">
      <h3>Jobs</h3>
      <table data-testid="jobs">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Folder</th>
            <th scope="col">State</th>
            <th scope="col">Progress</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {recent.map((j) => (
            <tr key={j.id} data-testid="job-row" data-state={j.state}>
              <td>{j.kind}</td>
              <td>
                <code>{j.folder}</code>
              </td>
              <td>
                {j.state}
                {j.error ? <span className="error-text" title={j.error.remedy}> ({j.error.code}: {j.error.message})</span> : null}
              </td>
              <td>
                {j.progress.summary ? `${j.progress.summary.label}${j.progress.summary.counts ? `: ${j.progress.summary.counts}` : ''}` : j.progress.phase}
              </td>
              <td className="row">
                {j.state === 'running' || j.state === 'queued' ? (
                  <button type="button" className="btn small" onClick={() => act(j.id, 'pause')} disabled={action.busy}>
                    Pause
                  </button>
                ) : null}
                {j.state === 'paused' ? (
                  <button type="button" className="btn small" onClick={() => act(j.id, 'resume')} disabled={action.busy}>
                    Resume
                  </button>
                ) : null}
                {j.state === 'running' || j.state === 'queued' || j.state === 'paused' ? (
                  <button type="button" className="btn small danger" onClick={() => act(j.id, 'cancel')} disabled={action.busy}>
                    Cancel
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {action.error ? <ErrorNote error={action.error} /> : null}
    </div>
  );
}
