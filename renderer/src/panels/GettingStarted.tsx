/**
 * The first-run path, in the order a person goes: 1 add a folder, 2 wait for it to be indexed
 * (then try a search), 3 connect a client. Each step says whether it is done and links to the
 * panel that does it; the guide can be hidden once the first two are done.
 */
import { useState } from 'react';
import { useEngine } from '../hooks/engine-context';

const HIDE_KEY = 'cairn.getting-started.hidden';

type StepState = 'done' | 'current' | 'next';

function Step({
  n,
  state,
  title,
  children,
  testId,
}: {
  n: number;
  state: StepState;
  title: string;
  children: React.ReactNode;
  testId: string;
}) {
  return (
    <li
      className={`step ${state}`}
      data-testid={testId}
      data-state={state}
      aria-current={state === 'current' ? 'step' : undefined}
    >
      <span className="step-n" aria-hidden="true">
        {state === 'done' ? '✓' : n}
      </span>
      <div>
        <strong>{title}</strong>
        {state === 'done' ? <span className="sr-only"> (done)</span> : null}
        <div className="muted small">{children}</div>
      </div>
    </li>
  );
}

export function GettingStarted() {
  const { engine, mcp } = useEngine();
  const [hidden, setHidden] = useState(() => {
    try {
      return localStorage.getItem(HIDE_KEY) === '1';
    } catch {
      return false;
    }
  });
  if (!engine) return null;
  const hasFolder = engine.folders.length > 0;
  const indexed = engine.folders.some((f) => f.files > 0 && f.state !== 'indexing');
  const indexing = engine.folders.find((f) => f.state === 'indexing');
  if (hidden && hasFolder && indexed) return null;
  const s1: StepState = hasFolder ? 'done' : 'current';
  const s2: StepState = !hasFolder ? 'next' : indexed ? 'done' : 'current';
  const s3: StepState = indexed ? 'current' : 'next';
  const progress = indexing?.progress?.summary;
  return (
    <section className="panel getting-started" aria-labelledby="getting-started-heading" data-testid="getting-started">
      <header className="panel-head">
        <h2 id="getting-started-heading">Get started in three steps</h2>
        {hasFolder && indexed ? (
          <button
            type="button"
            className="link small"
            onClick={() => {
              try {
                localStorage.setItem(HIDE_KEY, '1');
              } catch {
                // Private mode: hidden for this page only.
              }
              setHidden(true);
            }}
            data-testid="getting-started-hide"
          >
            Hide this guide
          </button>
        ) : null}
      </header>
      <ol className="steps">
        <Step n={1} state={s1} title="Add a folder" testId="step-add">
          {hasFolder ? (
            <>
              {engine.folders.length} folder{engine.folders.length === 1 ? '' : 's'} added.{' '}
              <a href="#index">Add another</a>
            </>
          ) : (
            <>
              Choose the folder with your notes, documents or code in <a href="#index">Index</a>: Browse… or type its
              path (<code>~/notes</code>). Cairn indexes it and keeps it fresh.
            </>
          )}
        </Step>
        <Step n={2} state={s2} title="Wait for it to be indexed, then try a search" testId="step-wait">
          {!hasFolder ? (
            'Text search works as soon as the files are read; vectors for meaning search follow in the background.'
          ) : indexed ? (
            <>
              Ready: {engine.totals.files.toLocaleString('en-US')} files. <a href="#search">Try a search</a> to see what
              an agent gets.
            </>
          ) : (
            <span data-testid="step-wait-progress">
              Indexing
              {progress
                ? `: ${progress.label}${progress.counts ? ` ${progress.counts}` : ''}${progress.eta ? `, ${progress.eta}` : ''}`
                : '…'}
            </span>
          )}
        </Step>
        <Step n={3} state={s3} title="Connect a client" testId="step-connect">
          In <a href="#clients">Connect a client</a>, pick yours (Claude, Cursor, VS Code, Codex…) and copy or install
          its entry. It reaches Cairn at <code>{mcp?.advertised_url ?? '…'}</code>.
        </Step>
      </ol>
    </section>
  );
}
