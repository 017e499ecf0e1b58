/**
 * A read-only view of an indexed file, through the same contract and file door as the MCP `read`
 * tool (POST /api/read): what an agent could read, and nothing more. Opens at a hit's lines; pages
 * of 200 lines; a PDF by page. In the desktop app it can also reveal the file.
 */
import { useEffect, useState } from 'react';
import type { ReadResult } from '../../../main/common/search';
import type { ErrorBody } from '../../../main/common/errors';
import { api } from '../api/endpoints';
import { describeError } from '../api/client';
import { desktopBridge } from '../api/bridge';
import { ErrorNote } from './ErrorNote';

const PAGE_LINES = 200;

export interface ViewTarget {
  path: string;
  line?: number;
  page?: number;
}

export function FileViewer({ target, onClose }: { target: ViewTarget; onClose: () => void }) {
  const [start, setStart] = useState(Math.max(1, (target.line ?? 1) - 5));
  const [page, setPage] = useState(target.page);
  const [res, setRes] = useState<ReadResult | null>(null);
  const [error, setError] = useState<ErrorBody | null>(null);
  const bridge = desktopBridge();

  // A new target starts the view at its line again (adjusted while rendering, not in an effect).
  const [shown, setShown] = useState(target);
  if (shown !== target) {
    setShown(target);
    setStart(Math.max(1, (target.line ?? 1) - 5));
    setPage(target.page);
  }

  useEffect(() => {
    let live = true;
    api
      .read({ path: target.path, start_line: start, end_line: start + PAGE_LINES - 1, ...(page ? { page } : {}) })
      .then(
        (r) => live && (setRes(r), setError(null)),
        (err) => live && (setRes(null), setError(describeError(err))),
      );
    return () => {
      live = false;
    };
  }, [target.path, start, page]);

  return (
    <div className="viewer" role="dialog" aria-label={`View ${target.path}`} data-testid="file-viewer">
      <div className="row">
        <code className="wide" data-testid="viewer-path">
          {target.path}
          {res?.page ? ` (page ${res.page})` : ''}
        </code>
        {bridge ? (
          <button type="button" className="btn small" onClick={() => void bridge.revealFile(target.path)}>
            Show in folder
          </button>
        ) : null}
        <button type="button" className="btn small" onClick={onClose} data-testid="viewer-close">
          Close
        </button>
      </div>
      {error ? <ErrorNote error={error} testId="viewer-error" /> : null}
      {res ? (
        <>
          <pre className="snippet viewer-text" data-testid="viewer-content" tabIndex={0}>
            {res.content || '(no lines here)'}
          </pre>
          <div className="row small">
            <button
              type="button"
              className="btn small"
              disabled={start <= 1}
              onClick={() => setStart(Math.max(1, start - PAGE_LINES))}
            >
              ← Earlier lines
            </button>
            <span data-testid="viewer-range">
              lines {res.start_line}–{res.end_line} of {res.total_lines}
            </span>
            <button
              type="button"
              className="btn small"
              disabled={res.end_line >= res.total_lines}
              onClick={() => setStart(res.end_line + 1)}
              data-testid="viewer-next"
            >
              Later lines →
            </button>
            {res.page ? (
              <>
                <button
                  type="button"
                  className="btn small"
                  disabled={res.page <= 1}
                  onClick={() => (setPage(res.page! - 1), setStart(1))}
                >
                  ← Page
                </button>
                <button type="button" className="btn small" onClick={() => (setPage(res.page! + 1), setStart(1))}>
                  Page →
                </button>
              </>
            ) : null}
          </div>
        </>
      ) : null}
    </div>
  );
}
