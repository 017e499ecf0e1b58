/** One indexed folder: state, counts, progress, last update, per-file errors and its actions. */
import { useState } from 'react';
import type { FolderStatus, JobInfo } from '../../../main/common/status';
import { api } from '../api/endpoints';
import { desktopBridge } from '../api/bridge';
import { ErrorNote } from '../components/ErrorNote';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';
import { ago } from './time';
import { FolderFiles } from './FolderFiles';
import type { FileListShow } from '../../../main/common/files';

const STATE_LABEL: Record<FolderStatus['state'], string> = {
  indexing: 'indexing',
  fresh: 'fresh',
  possibly_stale: 'possibly stale',
  error: 'error',
};

const count = (n: number, noun: string, plural = `${noun}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;

/** The folder's vector coverage; while vectors are being computed the progress below has the live count. */
function vectorsText(folder: FolderStatus): string {
  if (folder.text_only) return 'text only: no vectors';
  if (folder.progress?.phase === 'embedding') return 'vectors being computed';
  if (folder.chunks === 0) return 'no chunks yet';
  if (folder.embedded_chunks >= folder.chunks) return 'all with vectors';
  return `${Math.floor((folder.embedded_chunks / folder.chunks) * 100)}% with vectors`;
}

export function FolderRow({ folder, jobs }: { folder: FolderStatus; jobs: JobInfo[] }) {
  const { refresh, engine } = useEngine();
  const action = useAction();
  const [showErrors, setShowErrors] = useState(false);
  const [files, setFiles] = useState<FileListShow | null>(null);
  const p = folder.progress;
  const active = jobs.some((j) => j.state === 'running' || j.state === 'queued' || j.state === 'paused');
  const bridge = desktopBridge();
  const paused =
    folder.state === 'indexing' && jobs.some((j) => j.state === 'paused') && !jobs.some((j) => j.state === 'running');

  const act = (fn: () => Promise<unknown>) =>
    action.run(async () => {
      await fn();
      await refresh();
    });

  return (
    <li className="folder" data-testid="folder-row" data-path={folder.path} data-state={folder.state}>
      <div className="folder-head">
        <code className="folder-path">{folder.path}</code>
        {/* A folder whose job is held by a pause is not "indexing": say what it is. */}
        <span className="row tight">
          {folder.text_only ? (
            <span
              className="pill text-only"
              data-testid="folder-text-only"
              title="Full-text and graph search only: no vectors are computed for this folder"
            >
              text only
            </span>
          ) : null}
          <span className={`pill ${paused ? 'stopped' : folder.state}`} data-testid="folder-state">
            {paused ? 'paused' : STATE_LABEL[folder.state]}
          </span>
        </span>
      </div>
      <p className="muted" data-testid="folder-counts">
        {count(folder.files, 'file')} · {count(folder.chunks, 'chunk')} · {vectorsText(folder)} · updated{' '}
        {ago(folder.updated_at)}
        {folder.freshness.pending_changes ? ` · ${folder.freshness.pending_changes} changes pending` : ''}
        {folder.skipped && folder.skipped.total > 0 ? (
          <>
            {' · '}
            <button
              type="button"
              className="link"
              onClick={() => setFiles(files === 'skipped' ? null : 'skipped')}
              data-testid="folder-skipped"
              title="What was left out, and why"
            >
              {folder.skipped.total.toLocaleString('en-US')} skipped
            </button>
          </>
        ) : null}
      </p>
      {folder.include.length || folder.exclude.length ? (
        <p className="muted small">
          {folder.include.length ? `include ${folder.include.join(', ')}` : ''}{' '}
          {folder.exclude.length ? `exclude ${folder.exclude.join(', ')}` : ''}
        </p>
      ) : null}
      {/* The secret excludes are a default the person should see, not discover: what they keep out, and how to opt in. */}
      <details className="muted small" data-testid="folder-secrets">
        <summary data-testid="folder-secrets-summary">
          {folder.include_secrets
            ? 'Credential files are indexed in this folder (include_secrets is on)'
            : `Credential files left out${folder.secrets_excluded === null ? '' : `: ${count(folder.secrets_excluded, 'file or folder', 'files or folders')}`}`}
        </summary>
        <p>
          {folder.include_secrets
            ? 'The built-in secret excludes are off here, so MCP clients can search and read: '
            : 'Never indexed, searched or read here, so no MCP client can reach them: '}
          {(engine?.secret_excludes ?? []).map((pattern, i) => (
            <span key={pattern}>
              {i ? ', ' : ''}
              <code>{pattern}</code>
            </span>
          ))}
          .{' '}
          {folder.include_secrets
            ? 'Remove include_secrets from this folder in settings to leave them out again.'
            : 'To index them in this folder, set include_secrets: true on it in the folders setting (a new folder: cairn add <folder> --include-secrets).'}
        </p>
      </details>
      {folder.reason ? <p className="error-text">{folder.reason}</p> : null}
      {p && p.phase !== 'done' && p.summary ? (
        <div className="progress-block" data-testid="folder-progress-block">
          <label>
            <span data-testid="folder-progress-text">
              {p.summary.label}
              {p.summary.counts ? `: ${p.summary.counts}` : ''}
              {p.summary.file ? ` · ${p.summary.file}` : ''}
              {p.summary.eta ? ` · ${p.summary.eta}` : ''}
            </span>
            {/* No value: an indeterminate bar while the total is not known (a scan still finding files, a queued job). */}
            {p.summary.fraction === null ? (
              <progress data-testid="folder-progress" />
            ) : (
              <progress max={1} value={p.summary.fraction} data-testid="folder-progress" />
            )}
          </label>
        </div>
      ) : null}
      <div className="row">
        <button
          type="button"
          className="btn small"
          disabled={action.busy || active}
          onClick={() => act(() => api.indexFolder({ path: folder.path, kind: 'update' }))}
          data-testid="folder-update"
          title="Pick up files added, changed or deleted since the last run"
        >
          Update
        </button>
        <button
          type="button"
          className="btn small"
          disabled={action.busy || active}
          onClick={() => {
            if (
              window.confirm(
                `Re-index ${folder.path} from scratch? Every file is read and embedded again, which can take a long time; search keeps working meanwhile. (Update only picks up what changed.)`,
              )
            )
              void act(() => api.indexFolder({ path: folder.path, kind: 'rebuild' }));
          }}
          data-testid="folder-rebuild"
          title="Read and embed every file again, from scratch"
        >
          Re-index
        </button>
        <button
          type="button"
          className="btn small danger"
          disabled={action.busy}
          data-testid="folder-remove"
          onClick={() => {
            if (window.confirm(`Stop indexing ${folder.path} and delete its index? Your files are not touched.`))
              void act(() => api.removeFolder({ path: folder.path }));
          }}
        >
          Remove
        </button>
        <button
          type="button"
          className="btn small"
          aria-expanded={files !== null}
          onClick={() => setFiles(files === null ? 'all' : null)}
          data-testid="folder-files-toggle"
        >
          {files === null ? 'Files' : 'Hide files'}
        </button>
        <button
          type="button"
          className="btn small"
          disabled={action.busy}
          data-testid="folder-text-only-toggle"
          title={
            folder.text_only
              ? 'Compute vectors for this folder (meaning search); this takes a while on a large folder'
              : 'Stop computing vectors for this folder: full-text and graph search only'
          }
          onClick={() => act(() => api.updateFolder({ path: folder.path, text_only: !folder.text_only }))}
        >
          {folder.text_only ? 'Compute vectors' : 'Make text only'}
        </button>
        {folder.file_errors ? (
          <button
            type="button"
            className="link"
            aria-expanded={showErrors}
            onClick={() => setShowErrors(!showErrors)}
            data-testid="folder-errors-toggle"
          >
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
          {folder.file_errors > folder.errors.length ? (
            <li className="muted">…and {folder.file_errors - folder.errors.length} more</li>
          ) : null}
        </ul>
      ) : null}
      {files !== null ? (
        <FolderFiles
          folder={folder.path}
          initialShow={files}
          version={`${folder.updated_at}|${folder.files}|${folder.file_errors}|${folder.skipped?.total}|${folder.embedded_chunks}`}
        />
      ) : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </li>
  );
}
