/**
 * Search playground: POST /api/search runs the same code path as the MCP `search` tool, so what
 * shows here is what an agent gets. Each hit shows the rank every leg gave it, which is how a person
 * sees why fusion ordered things as it did.
 */
import { useState } from 'react';
import type { SearchMode, SearchResponse } from '../../../main/common/search';
import type { LIMITS } from '../../../main/common/requests';
import { api } from '../api/endpoints';
import { ErrorNote } from '../components/ErrorNote';
import { Empty, Panel } from '../components/Panel';
import { useAction } from '../hooks/useAsync';
import { useEngine } from '../hooks/engine-context';
import { MODES } from './modes';
import { hitPlace } from './hit-place';
import { FileViewer, type ViewTarget } from '../components/FileViewer';

// The renderer takes the contract as types only: these are checked against it by the compiler.
const TOP_K_MIN: (typeof LIMITS)['topK']['min'] = 1;
const TOP_K_MAX: (typeof LIMITS)['topK']['max'] = 100;

const LEGS = ['vector', 'sparse', 'graph'] as const;

export function SearchPanel() {
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<SearchMode | ''>('');
  // Empty: the mounted server's default, as an agent that gives none gets it.
  const [topK, setTopK] = useState<number | ''>('');
  const { mcp } = useEngine();
  const [result, setResult] = useState<SearchResponse | null>(null);
  const [viewing, setViewing] = useState<ViewTarget | null>(null);
  const action = useAction();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!query.trim()) return;
    const r = await action.run(() =>
      api.search({ query: query.trim(), ...(topK !== '' ? { top_k: topK } : {}), ...(mode ? { mode } : {}) }),
    );
    setResult(r ?? null);
  };

  return (
    <Panel id="search" title="Search playground">
      <form className="row wrap" onSubmit={submit}>
        <label htmlFor="search-query">Search query</label>
        <input
          id="search-query"
          type="search"
          className="wide"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="search-query"
        />
        <label htmlFor="search-mode">Mode</label>
        <select
          id="search-mode"
          value={mode}
          onChange={(e) => setMode(e.target.value as SearchMode | '')}
          data-testid="search-mode"
        >
          <option value="">server default</option>
          {MODES.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
        <label htmlFor="search-top-k">top_k</label>
        <input
          id="search-top-k"
          type="number"
          min={TOP_K_MIN}
          max={TOP_K_MAX}
          value={topK}
          placeholder={mcp ? String(mcp.default_top_k) : 'default'}
          title="Empty: the server's default"
          onChange={(e) => setTopK(e.target.value === '' ? '' : Number(e.target.value))}
          className="narrow"
          data-testid="search-top-k"
        />
        <button type="submit" className="btn primary" disabled={!query.trim() || action.busy} data-testid="search-run">
          {action.busy ? 'Searching…' : 'Search'}
        </button>
      </form>
      {action.error ? <ErrorNote error={action.error} testId="search-error" /> : null}
      {viewing ? <FileViewer target={viewing} onClose={() => setViewing(null)} /> : null}
      {result ? (
        <div data-testid="search-result">
          <p className="muted">
            {result.hits.length} hits · mode {result.mode} · legs answered: {result.legs_answered.join(', ') || 'none'}{' '}
            · {Math.round(result.took_ms)} ms
          </p>
          {result.hits.length === 0 ? (
            <Empty>No hits. Try another mode or phrasing, or check that the folders are indexed.</Empty>
          ) : (
            <ol className="hits">
              {result.hits.map((h, i) => (
                <li key={`${h.path}:${h.page ?? 0}:${h.start_line}:${i}`} data-testid="search-hit">
                  <div className="hit-head">
                    <code data-testid="hit-place">
                      {h.path}
                      {hitPlace(h)}
                    </code>
                    <span className="muted"> score {h.score.toFixed(4)}</span>
                    {h.symbol ? <span className="tag">{h.symbol}</span> : null}
                    {h.heading ? <span className="tag">{h.heading}</span> : null}
                    <button
                      type="button"
                      className="btn small"
                      onClick={() =>
                        setViewing({ path: h.path, line: h.start_line, ...(h.page ? { page: h.page } : {}) })
                      }
                      data-testid="hit-open"
                    >
                      Open
                    </button>
                  </div>
                  <p className="legs" data-testid="hit-legs">
                    {LEGS.map((leg) => (
                      <span key={leg} className={`leg ${h.legs[leg] ? '' : 'absent'}`}>
                        {leg} {h.legs[leg] ? `#${h.legs[leg]}` : '–'}
                      </span>
                    ))}
                  </p>
                  <pre className="snippet">{h.snippet}</pre>
                </li>
              ))}
            </ol>
          )}
        </div>
      ) : null}
    </Panel>
  );
}
