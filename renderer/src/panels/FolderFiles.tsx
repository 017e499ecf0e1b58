/**
 * One folder's files, a page at a time (GET /api/folders/files): indexed, waiting for vectors,
 * errors, and what was skipped and why. In the desktop app a path reveals the file.
 */
import { useEffect, useState } from 'react';
import type { FileListShow, FolderFilesResponse } from '../../../main/common/files';
import type { ErrorBody } from '../../../main/common/errors';
import { api } from '../api/endpoints';
import { describeError } from '../api/client';
import { desktopBridge } from '../api/bridge';
import { ErrorNote } from '../components/ErrorNote';
import { FileViewer, type ViewTarget } from '../components/FileViewer';

const PAGE = 50;
const n = (v: number) => v.toLocaleString('en-US');

export function FolderFiles({
  folder,
  initialShow = 'all',
  version,
}: {
  folder: string;
  initialShow?: FileListShow;
  version: string;
}) {
  const [show, setShow] = useState<FileListShow>(initialShow);
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [res, setRes] = useState<FolderFilesResponse | null>(null);
  const [error, setError] = useState<ErrorBody | null>(null);
  const bridge = desktopBridge();
  const [viewing, setViewing] = useState<ViewTarget | null>(null);

  // A new tab asked from outside (a count's link) wins over the one clicked (adjusted while rendering).
  const [asked, setAsked] = useState(initialShow);
  if (asked !== initialShow) {
    setAsked(initialShow);
    setShow(initialShow);
  }
  useEffect(() => {
    const ctl = new AbortController();
    api.folderFiles({ path: folder, show, q, offset, limit: PAGE }, { signal: ctl.signal }).then(
      (r) => (setRes(r), setError(null)),
      (err) => (err as Error).name !== 'AbortError' && setError(describeError(err)),
    );
    return () => ctl.abort();
  }, [folder, show, q, offset, version]);

  const c = res?.counts;
  const tabs: [FileListShow, string, number | undefined][] = [
    ['all', 'All', c ? c.indexed + c.errors + c.skipped : undefined],
    ['indexed', 'Indexed', c?.indexed],
    ...(res?.text_only
      ? []
      : [['embedding', 'Waiting for vectors', c?.embedding] as [FileListShow, string, number | undefined]]),
    ['errors', 'Errors', c?.errors],
    ['skipped', 'Skipped', c?.skipped],
  ];
  const end = res ? res.offset + res.items.length : 0;
  return (
    <div className="folder-files" data-testid="folder-files">
      <div className="row" role="tablist" aria-label="Which files">
        {tabs.map(([id, label, count]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={show === id}
            className={`btn small ${show === id ? 'primary' : ''}`}
            onClick={() => (setShow(id), setOffset(0))}
            data-testid={`files-tab-${id}`}
          >
            {label}
            {count === undefined ? '' : ` (${n(count)})`}
          </button>
        ))}
        <label htmlFor={`files-q-${folder}`} className="sr-only">
          Filter by path
        </label>
        <input
          id={`files-q-${folder}`}
          type="search"
          placeholder="filter by path"
          value={q}
          onChange={(e) => (setQ(e.target.value), setOffset(0))}
          data-testid="files-filter"
        />
      </div>
      {show === 'skipped' && res && res.skipped_reasons.length > 0 ? (
        <p className="muted small" data-testid="files-skip-reasons">
          {res.skipped_reasons.map((r) => `${n(r.count)} ${r.text}`).join(' · ')}
          {res.skipped_listed_all ? '' : ' (more than are listed by path; the counts are exact)'}
        </p>
      ) : null}
      {error ? <ErrorNote error={error} testId="files-error" /> : null}
      {res && res.items.length === 0 ? (
        <p className="empty">
          {q ? 'No file matches that filter.' : show === 'skipped' ? 'Nothing was skipped.' : 'No files here.'}
        </p>
      ) : null}
      {res && res.items.length > 0 ? (
        <div className="table-wrap">
          <table className="files" data-testid="files-table">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Status</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {res.items.map((e) => (
                <tr key={`${e.status}:${e.rel}`} data-testid="file-row" data-status={e.status}>
                  <td className="path-cell">
                    {e.status === 'indexed' || e.status === 'embedding' || e.status === 'text_only' ? (
                      <button
                        type="button"
                        className="link mono"
                        onClick={() => setViewing({ path: e.path })}
                        title={`View ${e.path}`}
                        data-testid="file-view"
                      >
                        {e.rel}
                      </button>
                    ) : bridge && e.status === 'error' ? (
                      <button
                        type="button"
                        className="link mono"
                        onClick={() => void bridge.revealFile(e.path)}
                        title="Show in the file manager"
                      >
                        {e.rel}
                      </button>
                    ) : (
                      <code title={e.path}>{e.rel}</code>
                    )}
                  </td>
                  <td>
                    <span className={`tag status-${e.status}`}>
                      {e.status === 'embedding'
                        ? 'waiting for vectors'
                        : e.status === 'text_only'
                          ? 'text only'
                          : e.status}
                    </span>
                  </td>
                  <td className="small">
                    {e.status === 'skipped'
                      ? `${e.reason_text ?? e.reason}${e.detail ? ` (${e.detail})` : ''}`
                      : e.status === 'error'
                        ? `${e.message} (${e.code})`
                        : `${n(e.chunks ?? 0)} chunk${e.chunks === 1 ? '' : 's'}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {viewing ? <FileViewer target={viewing} onClose={() => setViewing(null)} /> : null}
      {res && res.total > PAGE ? (
        <div className="row small" data-testid="files-pager">
          <button
            type="button"
            className="btn small"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE))}
          >
            ← Previous
          </button>
          <span data-testid="files-range">
            {n(res.offset + 1)}–{n(end)} of {n(res.total)}
          </span>
          <button
            type="button"
            className="btn small"
            disabled={end >= res.total}
            onClick={() => setOffset(offset + PAGE)}
            data-testid="files-next"
          >
            Next →
          </button>
        </div>
      ) : null}
    </div>
  );
}
