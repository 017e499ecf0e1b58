/** One indexed folder: state, counts, progress, last update, per-file errors and its actions. */
import { useState } from 'react';
import type { FolderStatus, JobInfo } from '../../../main/common/status';
import { api } from '../api/endpoints';
import { desktopBridge } from '../api/bridge';
import { ErrorNote } from '../components/ErrorNote';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';
import { ago } from './time';

const STATE_LABEL: Record<FolderStatus['state'], string> = {
  indexing: 'indexing',
  fresh: 'fresh',
  possibly_stale: 'possibly stale',
  error: 'error',
};

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function FolderRow({ folder, jobs }: { folder: FolderStatus; jobs: JobInfo[] }) {
  const { refresh } = useEngine();
  const action = useAction();
  const [showErrors, setShowErrors] = useState(false);
  const p = folder.progress;
  const active = jobs.some((j) => j.state === 'running' || j.state === 'queued' || j.state === 'paused');
  const bridge = desktopBridge();

  const act = (fn: () => Promise<unknown>) => action.run(async () => {
    await fn();
    await refresh();
  });

  return (
    <li className="folder" data-testid="folder-row" data-path={folder.path} data-state={folder.state}>
      <div className="folder-head">
        <code className="folder-path">{folder.path}</code>
        <span className={`pill ${folder.state}`} data-testid="folder-state">
          {STATE_LABEL[folder.state]}
        </span>
      </div>
      <p className="muted" data-testid="folder-counts">
        {count(folder.files, 'file')} · {count(folder.chunks, 'chunk')} · {folder.embedded_chunks} with vectors · updated {ago(folder.updated_at)}
        {folder.freshness.pending_changes ? ` · ${folder.freshness.pending_changes} changes pending` : ''}
      </p>
      {folder.include.length || folder.exclude.length ? (
        <p className="muted small">
          {folder.include.length ? `include ${folder.include.join(', ')}` : ''} {folder.exclude.length ? `exclude ${folder.exclude.join(', ')}` : ''}
        </p>
      ) : null}
      {folder.reason ? <p className="error-text">{folder.reason}</p> : null}
      {p && p.phase !== 'done' ? (
        <div className="progress-block">
          <label>
            {p.phase}: {p.files_done}/{p.files_total} files
            <progress max={Math.max(1, p.files_total)} value={p.files_done} data-testid="folder-progress" />
          </label>
          {p.chunks_total ? (
            <label>
              vectors: {p.chunks_done}/{p.chunks_total}
              {p.eta_seconds !== null ? ` · about ${Math.ceil(p.eta_seconds)} s left` : ''}
              <progress max={Math.max(1, p.chunks_total)} value={p.chunks_done} />
            </label>
          ) : null}
        </div>
      ) : null}
      <div className="row">
        <button type="button" className="btn small" disabled={action.busy || active} onClick={() => act(() => api.indexFolder(folder.path, 'update'))} data-testid="folder-update">
          Update
        </button>
        <button type="button" className="btn small" disabled={action.busy || active} onClick={() => act(() => api.indexFolder(folder.path, 'rebuild'))} data-testid="folder-rebuild">
          Re-index
        </button>
        <button
          type="button"
          className="btn small danger"
          disabled={action.busy}
          data-testid="folder-remove"
          onClick={() => {
            if (window.confirm(`Stop indexing ${folder.path} and delete its index? Your files are not touched.`)) void act(() => api.removeFolder(folder.path));
          }}
        >
          Remove
        </button>
        {folder.file_errors ? (
          <button type="button" className="link" aria-expanded={showErrors} onClick={() => setShowErrors(!showErrors)} data-testid="folder-errors-toggle">
            {folder.file_errors} file error{folder.file_errors === 1 ? '' : 's'}
          </button>
        ) : null}
      </div>
      {showErrors ? (
        <ul className="file-errors" data-testid="folder-errors">
          {folder.errors.map((e) => (
            <li key={`${e.path}:${e.code}`}>
              {bridge ? (
                <button type="button" className="link mono" onClick={() => void bridge.revealFile(e.path)}>
                  {e.path}
                </button>
              ) : (
                <code>{e.path}</code>
              )}{' '}
              <code className="code-badge">{e.code}</code> {e.message}
            </li>
          ))}
          {folder.file_errors > folder.errors.length ? <li className="muted">…and {folder.file_errors - folder.errors.length} more</li> : null}
        </ul>
      ) : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </li>
  );
}
