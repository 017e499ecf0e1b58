/**
 * Indexing jobs with pause/resume/cancel: what runs or waits, then the last few that ended, each
 * with when it started and how long it took. Bounded (the engine keeps a few finished jobs; the
 * table shows MAX_FINISHED of them unless asked), and jobs of a removed folder are not shown.
 */
import { useState } from 'react';
import type { JobInfo } from '../../../main/common/status';
import { api } from '../api/endpoints';
import { ErrorNote } from '../components/ErrorNote';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';
import { ago } from './time';

const MAX_FINISHED = 5;

function duration(from: string, to: string | null): string {
  const s = Math.max(0, Math.round(((to ? Date.parse(to) : Date.now()) - Date.parse(from)) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const folderName = (p: string) =>
  p === '*maintenance*' ? 'index maintenance' : (p.split(/[\\/]/).filter(Boolean).pop() ?? p);

/** The job's progress in the words every surface uses, the file being embedded and the ETA on their own lines. */
function JobProgressCell({ job }: { job: JobInfo }) {
  const v = job.progress.summary;
  if (!v) return <>{job.progress.phase}</>;
  return (
    <>
      {v.label}
      {v.counts ? `: ${v.counts}` : ''}
      {v.file ? (
        <div className="job-file" data-testid="job-file" title={v.file}>
          {v.file}
        </div>
      ) : null}
      {v.eta ? <div className="muted">{v.eta}</div> : null}
    </>
  );
}

export function JobsList({ jobs, folders }: { jobs: JobInfo[]; folders: string[] }) {
  const { refresh } = useEngine();
  const action = useAction();
  const [all, setAll] = useState(false);
  const known = new Set(folders);
  const shown = jobs.filter((j) => known.has(j.folder) || j.folder === '*maintenance*');
  if (!shown.length) return null;
  const act = (id: string, a: 'pause' | 'resume' | 'cancel') =>
    action.run(async () => {
      await api.jobAction({ id, action: a });
      await refresh();
    });
  const newest = (a: JobInfo, b: JobInfo) => b.created_at.localeCompare(a.created_at);
  const open = shown.filter((j) => !j.finished_at).sort(newest);
  const ended = shown.filter((j) => j.finished_at).sort(newest);
  const rows = [...open, ...(all ? ended : ended.slice(0, MAX_FINISHED))];
  return (
    <div className="jobs">
      <h3>Jobs</h3>
      <div className="table-wrap">
        <table data-testid="jobs">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Folder</th>
              <th scope="col">State</th>
              <th scope="col">Progress</th>
              <th scope="col">Started</th>
              <th scope="col">Took</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((j) => (
              <tr key={j.id} data-testid="job-row" data-state={j.state}>
                <td>{j.kind}</td>
                <td className="path-cell" title={j.folder}>
                  {/* The folder's name, not a path wrapped mid-word; the whole path for screen readers and on hover. */}
                  <code>{folderName(j.folder)}</code>
                  <span className="sr-only"> {j.folder}</span>
                </td>
                <td>
                  {j.state}
                  {j.error ? (
                    <span className="error-text" title={j.error.remedy}>
                      {' '}
                      ({j.error.code}: {j.error.message})
                    </span>
                  ) : null}
                </td>
                <td data-testid="job-progress">
                  <JobProgressCell job={j} />
                </td>
                <td title={new Date(j.created_at).toLocaleString()} data-testid="job-started">
                  {clock(j.created_at)} <span className="muted">({ago(j.created_at)})</span>
                </td>
                <td data-testid="job-took">
                  {j.finished_at
                    ? duration(j.created_at, j.finished_at)
                    : j.state === 'queued'
                      ? '—'
                      : `${duration(j.created_at, null)} so far`}
                </td>
                <td className="actions-cell">
                  {j.state === 'running' || j.state === 'queued' ? (
                    <button
                      type="button"
                      className="btn small"
                      onClick={() => act(j.id, 'pause')}
                      disabled={action.busy}
                    >
                      Pause
                    </button>
                  ) : null}
                  {j.state === 'paused' ? (
                    <button
                      type="button"
                      className="btn small"
                      onClick={() => act(j.id, 'resume')}
                      disabled={action.busy}
                    >
                      Resume
                    </button>
                  ) : null}
                  {j.state === 'running' || j.state === 'queued' || j.state === 'paused' ? (
                    <button
                      type="button"
                      className="btn small danger"
                      onClick={() => act(j.id, 'cancel')}
                      disabled={action.busy}
                    >
                      Cancel
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {ended.length > MAX_FINISHED ? (
        <button type="button" className="link small" onClick={() => setAll(!all)} data-testid="jobs-show-all">
          {all ? 'Show fewer' : `Show ${ended.length - MAX_FINISHED} older`}
        </button>
      ) : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </div>
  );
}
