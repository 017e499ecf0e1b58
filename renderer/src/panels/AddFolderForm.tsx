/**
 * Add a folder: a native picker in the desktop app; in a browser (a web page cannot learn real
 * paths) the engine's folder browser or a typed path (`~` is the home folder). Include/exclude
 * globs are optional, one per line; a text-only folder gets no vectors.
 */
import { useState } from 'react';
import { api } from '../api/endpoints';
import { desktopBridge } from '../api/bridge';
import { ErrorNote } from '../components/ErrorNote';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';
import { FolderBrowser } from './FolderBrowser';

const globs = (text: string) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);

export function AddFolderForm() {
  const { refresh } = useEngine();
  const [path, setPath] = useState('');
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [more, setMore] = useState(false);
  const [textOnly, setTextOnly] = useState(false);
  const [browsing, setBrowsing] = useState(false);
  const action = useAction();
  const bridge = desktopBridge();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const p = path.trim();
    if (!p) return;
    const done = await action.run(async () => {
      const inc = globs(include);
      const exc = globs(exclude);
      await api.addFolder({
        path: p,
        ...(inc.length ? { include: inc } : {}),
        ...(exc.length ? { exclude: exc } : {}),
        ...(textOnly ? { text_only: true } : {}),
      });
      await refresh();
      return true;
    });
    if (done) {
      setPath('');
      setInclude('');
      setExclude('');
      setTextOnly(false);
    }
  };

  return (
    <form className="add-folder" onSubmit={submit} aria-label="Add a folder">
      <div className="row">
        <label htmlFor="folder-path">Folder</label>
        <input
          id="folder-path"
          className="wide mono"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="~/notes or /home/me/notes"
          spellCheck={false}
          data-testid="folder-path"
        />
        {bridge ? (
          <button
            type="button"
            className="btn"
            onClick={async () => setPath((await bridge.pickFolder()) ?? path)}
            data-testid="pick-folder"
          >
            Choose…
          </button>
        ) : (
          <button
            type="button"
            className="btn"
            onClick={() => setBrowsing(!browsing)}
            aria-expanded={browsing}
            data-testid="browse-folder"
          >
            Browse…
          </button>
        )}
        <button type="submit" className="btn primary" disabled={!path.trim() || action.busy} data-testid="add-folder">
          {action.busy ? 'Adding…' : 'Add folder'}
        </button>
      </div>
      {browsing ? (
        <FolderBrowser
          onChoose={(chosen) => {
            setPath(chosen);
            setBrowsing(false);
          }}
          onClose={() => setBrowsing(false)}
        />
      ) : null}
      <div className="row">
        <button type="button" className="link" aria-expanded={more} onClick={() => setMore(!more)}>
          {more ? 'Hide' : 'Include/exclude globs'}
        </button>
        <label title="Full-text and graph search only: no vectors are computed, which saves the embedding time of a large folder">
          <input
            type="checkbox"
            checked={textOnly}
            onChange={(e) => setTextOnly(e.target.checked)}
            data-testid="folder-text-only"
          />{' '}
          Text only (no vectors)
        </label>
      </div>
      {more ? (
        <div className="two-col">
          <div>
            <label htmlFor="folder-include">Include globs (one per line)</label>
            <textarea
              id="folder-include"
              rows={3}
              value={include}
              onChange={(e) => setInclude(e.target.value)}
              placeholder="**/*.md"
              data-testid="folder-include"
            />
          </div>
          <div>
            <label htmlFor="folder-exclude">Exclude globs</label>
            <textarea
              id="folder-exclude"
              rows={3}
              value={exclude}
              onChange={(e) => setExclude(e.target.value)}
              placeholder="drafts/**"
              data-testid="folder-exclude"
            />
          </div>
        </div>
      ) : null}
      {action.error ? <ErrorNote error={action.error} testId="add-folder-error" /> : null}
    </form>
  );
}
