/** Index management: the embedding model, the folders with their state, and the jobs. */
import { ErrorNote } from '../components/ErrorNote';
import { Empty, Loading, Panel } from '../components/Panel';
import { useEngine } from '../hooks/engine-context';
import { AddFolderForm } from './AddFolderForm';
import { FolderRow } from './FolderRow';
import { IndexHealth } from './IndexHealth';
import { JobsList } from './JobsList';
import { ModelSection } from './ModelSection';
import { PauseAllButton } from './PauseAllButton';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function IndexPanel() {
  const { engine, error } = useEngine();
  if (!engine) {
    return (
      <Panel id="index" title="Index">
        {error ? <ErrorNote error={error} /> : <Loading what="folders" />}
      </Panel>
    );
  }
  const t = engine.totals;
  return (
    <Panel id="index" title="Index" actions={<PauseAllButton paused={engine.paused} />}>
      <p className="muted" data-testid="index-totals">
        {count(engine.folders.length, 'folder')}, {count(t.files, 'file')}, {count(t.chunks, 'chunk')} (
        {t.embedded_chunks} with vectors)
        {engine.paused ? ' · indexing paused' : ''}
      </p>
      <IndexHealth engine={engine} />
      {engine.contract_mismatch ? <ErrorNote error={engine.contract_mismatch} testId="contract-mismatch" /> : null}
      {/* Folders first: adding one is step 1 of the first run; the model rarely needs a look. */}
      <AddFolderForm />
      {engine.folders.length === 0 ? (
        <Empty>No folders yet. Add one above; Cairn indexes it and keeps it fresh while running.</Empty>
      ) : (
        <ul className="folders" data-testid="folders">
          {engine.folders.map((f) => (
            <FolderRow key={f.path} folder={f} jobs={engine.jobs.filter((j) => j.folder === f.path)} />
          ))}
        </ul>
      )}
      <JobsList jobs={engine.jobs} folders={engine.folders.map((f) => f.path)} />
      <ModelSection engine={engine} />
    </Panel>
  );
}
