/**
 * The embedding model. A change downloads the new model (its bytes shown as they arrive), checks
 * that it loads and embeds, and only then makes it the configured one: until then, and if it
 * fails, the current model keeps serving. Vectors from different models are not comparable, so a
 * completed change means rebuilding every folder; while the stored index conflicts (contract
 * mismatch) a rebuild of every folder is offered, with a confirmation, and only for a model that
 * works.
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
    // Nothing changes until the model is downloaded and checked, so no confirmation is needed here.
    void action.run(async () => {
      await api.switchModel({ model: id });
      setNext('');
      await refresh();
    });
  };

  const download = () =>
    action.run(async () => {
      await api.loadModel();
      await refresh();
    });

  const rebuildAll = () => {
    const ok = window.confirm(
      `Re-index ${n === 1 ? 'the folder' : `all ${n} folders`} with ${m.id}? Every file is read and embedded again (this can take a long time for large folders); text search keeps working meanwhile.`,
    );
    if (!ok) return;
    void action.run(async () => {
      for (const f of engine.folders) await api.indexFolder({ path: f.path, kind: 'rebuild' });
      await refresh();
    });
  };
  const sw = engine.model_switch;
  const switching = sw?.state === 'downloading' || sw?.state === 'verifying';

  return (
    <div className="model" data-testid="model">
      <h3>Embedding model</h3>
      <p>
        <code data-testid="model-id">{m.id}</code>{' '}
        <span
          className={`pill ${m.state === 'ready' ? 'fresh' : m.state === 'error' ? 'error' : 'indexing'}`}
          data-testid="model-state"
        >
          {m.state}
        </span>{' '}
        <span className="muted">
          {[
            m.dimensions ? `${m.dimensions} dimensions` : '',
            m.size_mb ? `${m.size_mb} MB` : '',
            m.builtin ? 'built in' : '',
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
      </p>
      {m.description ? <p className="muted small">{m.description}</p> : null}
      {m.state === 'missing' ? (
        <p className="row" data-testid="model-missing">
          <span>Not on this computer yet: it is downloaded from the Hugging Face hub when first needed.</span>
          <button
            type="button"
            className="btn small"
            onClick={download}
            disabled={action.busy}
            data-testid="model-download"
          >
            Download now
          </button>
        </p>
      ) : null}
      {m.state === 'downloading' && m.download ? <DownloadBar download={m.download} /> : null}
      {m.state === 'error' && m.error ? (
        <ErrorNote
          error={{ code: 'dependency_unavailable', message: m.error, ...(m.remedy ? { remedy: m.remedy } : {}) }}
          testId="model-error"
        />
      ) : null}
      {engine.contract ? (
        <p className="muted small" data-testid="contract">
          Stored index: {engine.contract.embedding_model} ({engine.contract.embedding_dimensions} d), chunker v
          {engine.contract.chunker_version}
        </p>
      ) : null}
      {sw ? <SwitchNote sw={sw} /> : null}
      {engine.contract_mismatch && n && m.state !== 'error' ? (
        <button
          type="button"
          className="btn primary"
          onClick={rebuildAll}
          disabled={action.busy}
          data-testid="rebuild-all"
        >
          Re-index all {n} folder{n === 1 ? '' : 's'} with {m.id}
        </button>
      ) : null}
      <form className="row" onSubmit={change}>
        <label htmlFor="model-next">Change model</label>
        <input
          id="model-next"
          className="mono"
          list={MODEL_CHOICES_ID}
          value={next}
          onChange={(e) => setNext(e.target.value)}
          placeholder="registry id, hub id or local folder"
          data-testid="model-next"
        />
        <button
          type="submit"
          className="btn"
          disabled={!next.trim() || action.busy || switching}
          data-testid="model-change"
        >
          Download, check and switch
        </button>
      </form>
      <ModelChoices current={m.id} state={m.state} />
      {n ? (
        <p className="hint">
          A change requires re-indexing {n === 1 ? 'the folder' : `all ${n} folders`} (vectors of different models do
          not mix).
        </p>
      ) : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </div>
  );
}

/** The switch in progress or just ended: what it does now, or why the current model stays. */
function SwitchNote({ sw }: { sw: NonNullable<EngineStatus['model_switch']> }) {
  if (sw.state === 'downloading' || sw.state === 'verifying') {
    return (
      <div className="notice" role="status" data-testid="model-switch" data-state={sw.state}>
        <p>
          Switching to <code>{sw.target}</code>:{' '}
          {sw.state === 'downloading' ? 'downloading it' : 'checking that it loads and embeds'}. <code>{sw.from}</code>{' '}
          keeps serving until then.
        </p>
        {sw.download ? <DownloadBar download={sw.download} /> : null}
      </div>
    );
  }
  if (sw.state === 'failed') {
    return (
      <div data-testid="model-switch" data-state="failed">
        <ErrorNote
          error={{
            code: 'dependency_unavailable',
            message: `${sw.error ?? 'The model could not be loaded.'} The embedding model is still ${sw.from}.`,
            ...(sw.remedy ? { remedy: sw.remedy } : {}),
          }}
          testId="model-switch-error"
        />
      </div>
    );
  }
  return null;
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
        <progress
          max={Math.max(1, d.total_bytes)}
          value={d.total_bytes ? d.loaded_bytes : undefined}
          data-testid="model-download-bar"
        />
      </label>
    </div>
  );
}
