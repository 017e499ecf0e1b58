/**
 * The embedding model. Vectors from different models are not comparable, so changing the model
 * means rebuilding every folder's index; the form says so before saving, and while the stored
 * index conflicts (contract mismatch) a one-click rebuild of every folder is offered. A hub model
 * that is not on this computer is fetched right after the change, with its bytes shown as they
 * arrive, so nobody wonders why the first search waits.
 */
import { useState } from 'react';
import type { EngineStatus, ModelDownload } from '../../../main/common/status';
import { api } from '../api/endpoints';
import { ErrorNote } from '../components/ErrorNote';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';
import { MODEL_CHOICES_ID, ModelChoices } from './ModelChoices';

export function ModelSection({ engine }: { engine: EngineStatus }) {
  const { refresh } = useEngine();
  const m = engine.model;
  const [next, setNext] = useState('');
  const action = useAction();
  const n = engine.folders.length;

  const change = (e: React.FormEvent) => {
    e.preventDefault();
    const id = next.trim();
    if (!id || id === m.id) return;
    const msg = n
      ? `Switch the embedding model to ${id}? ${n === 1 ? 'The folder' : `All ${n} folders`} must be re-indexed (rebuilt) before vector search works again.`
      : `Switch the embedding model to ${id}?`;
    if (!window.confirm(msg)) return;
    void action.run(async () => {
      await api.updateSettings({ 'embedding.model': id });
      setNext('');
      // Fetch it now rather than at the first search or index job, so the wait is visible here.
      await api.loadModel();
      await refresh();
    });
  };

  const download = () =>
    action.run(async () => {
      await api.loadModel();
      await refresh();
    });

  const rebuildAll = () =>
    action.run(async () => {
      for (const f of engine.folders) await api.indexFolder(f.path, 'rebuild');
      await refresh();
    });

  return (
    <div className="model" data-testid="model">
      <h3>Embedding model</h3>
      <p>
        <code data-testid="model-id">{m.id}</code>{' '}
        <span className={`pill ${m.state === 'ready' ? 'fresh' : m.state === 'error' ? 'error' : 'indexing'}`} data-testid="model-state">
          {m.state}
        </span>{' '}
        <span className="muted">
          {[m.dimensions ? `${m.dimensions} dimensions` : '', m.size_mb ? `${m.size_mb} MB` : '', m.builtin ? 'built in' : ''].filter(Boolean).join(' · ')}
        </span>
      </p>
      {m.description ? <p className="muted small">{m.description}</p> : null}
      {m.state === 'missing' ? (
        <p className="row" data-testid="model-missing">
          <span>Not on this computer yet: it is downloaded from the Hugging Face hub when first needed.</span>
          <button type="button" className="btn small" onClick={download} disabled={action.busy} data-testid="model-download">
            Download now
          </button>
        </p>
      ) : null}
      {m.state === 'downloading' && m.download ? <DownloadBar download={m.download} /> : null}
      {m.state === 'error' && m.error ? <ErrorNote error={{ code: 'dependency_unavailable', message: m.error, ...(m.remedy ? { remedy: m.remedy } : {}) }} testId="model-error" /> : null}
      {engine.contract ? (
        <p className="muted small" data-testid="contract">
          Stored index: {engine.contract.embedding_model} ({engine.contract.embedding_dimensions} d), chunker v{engine.contract.chunker_version}
        </p>
      ) : null}
      {engine.contract_mismatch && n ? (
        <button type="button" className="btn primary" onClick={rebuildAll} disabled={action.busy} data-testid="rebuild-all">
          Re-index all {n} folder{n === 1 ? '' : 's'} with {m.id}
        </button>
      ) : null}
      <form className="row" onSubmit={change}>
        <label htmlFor="model-next">Change model</label>
        <input id="model-next" className="mono" list={MODEL_CHOICES_ID} value={next} onChange={(e) => setNext(e.target.value)} placeholder="registry id, hub id or local folder" data-testid="model-next" />
        <button type="submit" className="btn" disabled={!next.trim() || action.busy} data-testid="model-change">
          Change…
        </button>
      </form>
      <ModelChoices current={m.id} state={m.state} />
      {n ? <p className="hint">A change requires re-indexing {n === 1 ? 'the folder' : `all ${n} folders`} (vectors of different models do not mix).</p> : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </div>
  );
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function DownloadBar({ download: d }: { download: ModelDownload }) {
  // Files are announced as they start, so the total grows; naming the current file says why.
  const current = d.files.find((f) => f.total_bytes === 0 || f.loaded_bytes < f.total_bytes);
  return (
    <div className="progress-block" data-testid="model-download-progress">
      <label>
        Downloading{current ? ` ${current.file}` : ''}: {mb(d.loaded_bytes)}
        {d.total_bytes ? ` of ${mb(d.total_bytes)}` : ''}
        {d.percent !== null ? ` (${d.percent}%)` : ''}
        <progress max={Math.max(1, d.total_bytes)} value={d.total_bytes ? d.loaded_bytes : undefined} data-testid="model-download-bar" />
      </label>
    </div>
  );
}
