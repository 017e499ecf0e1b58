/**
 * Choosing a folder in a browser, where no native picker can return a real path: the engine lists
 * the directories below the home folder (GET /api/browse), marked with what adding each would mean.
 */
import { useEffect, useState } from 'react';
import type { BrowseMark, BrowseResponse } from '../../../main/common/browse';
import type { ErrorBody } from '../../../main/common/errors';
import { api } from '../api/endpoints';
import { describeError } from '../api/client';
import { ErrorNote } from '../components/ErrorNote';

const MARK_TEXT: Record<BrowseMark, string> = {
  data_folder: "Cairn's data folder: never indexed",
  contains_data_folder: "holds Cairn's data folder (left out)",
  indexed: 'already indexed',
  inside_indexed: 'inside an indexed folder',
  contains_indexed: 'holds an indexed folder',
  secret: 'credentials: left out',
  default_exclude: 'left out by default',
  outside_home: 'leads outside your home folder',
};

/** A mark that makes adding the folder fail (or pointless): its Choose button is disabled. */
const BLOCKING: ReadonlySet<BrowseMark> = new Set([
  'data_folder',
  'indexed',
  'inside_indexed',
  'contains_indexed',
  'outside_home',
]);

export function FolderBrowser({ onChoose, onClose }: { onChoose: (path: string) => void; onClose: () => void }) {
  const [at, setAt] = useState<string | undefined>(undefined);
  const [listing, setListing] = useState<BrowseResponse | null>(null);
  const [error, setError] = useState<ErrorBody | null>(null);
  const [hidden, setHidden] = useState(false);

  useEffect(() => {
    let live = true;
    api.browse({ path: at }).then(
      (r) => live && (setListing(r), setError(null)),
      (err) => live && setError(describeError(err)),
    );
    return () => {
      live = false;
    };
  }, [at]);

  const entries = listing?.entries.filter((e) => hidden || !e.hidden) ?? [];
  const hiddenCount = (listing?.entries.length ?? 0) - (listing?.entries.filter((e) => !e.hidden).length ?? 0);
  return (
    <div className="browser" role="dialog" aria-label="Choose a folder" data-testid="folder-browser">
      <div className="row">
        <button
          type="button"
          className="btn small"
          disabled={!listing?.parent}
          onClick={() => listing?.parent && setAt(listing.parent)}
          data-testid="browse-up"
        >
          ↑ Up
        </button>
        <code className="wide" data-testid="browse-path">
          {listing?.path ?? '…'}
        </code>
        <button
          type="button"
          className="btn small primary"
          disabled={!listing}
          onClick={() => listing && onChoose(listing.path)}
          data-testid="browse-choose-here"
        >
          Choose this folder
        </button>
        <button type="button" className="btn small" onClick={onClose}>
          Close
        </button>
      </div>
      {error ? <ErrorNote error={error} testId="browse-error" /> : null}
      {listing && entries.length === 0 ? (
        <p className="empty">No folders in here{hiddenCount ? ' (hidden ones aside)' : ''}.</p>
      ) : null}
      <ul className="browse-list" data-testid="browse-entries">
        {entries.map((e) => (
          <li key={e.path} data-testid="browse-entry" data-name={e.name}>
            <button
              type="button"
              className="link mono"
              disabled={!e.readable}
              onClick={() => setAt(e.path)}
              title={e.readable ? `Open ${e.path}` : 'Cairn cannot read this folder'}
            >
              {e.name}/
            </button>
            {!e.readable ? <span className="tag warn-text">cannot be read</span> : null}
            {e.marks.map((m) => (
              <span key={m} className={`tag ${BLOCKING.has(m) ? 'warn-text' : ''}`} data-testid="browse-mark">
                {MARK_TEXT[m]}
              </span>
            ))}
            <button
              type="button"
              className="btn small"
              disabled={!e.readable || e.marks.some((m) => BLOCKING.has(m))}
              onClick={() => onChoose(e.path)}
            >
              Choose
            </button>
          </li>
        ))}
      </ul>
      <div className="row small">
        {hiddenCount ? (
          <label>
            <input
              type="checkbox"
              checked={hidden}
              onChange={(e) => setHidden(e.target.checked)}
              data-testid="browse-hidden"
            />{' '}
            Show {hiddenCount} hidden folder{hiddenCount === 1 ? '' : 's'}
          </label>
        ) : null}
        {listing?.truncated ? (
          <span className="muted">Only the first folders are listed; type the path for others.</span>
        ) : null}
        <span className="muted">Shows your home folder only; type a path to add a folder elsewhere.</span>
      </div>
    </div>
  );
}
