/**
 * Probe: the engine opens a real MCP client session against its own server, lists tools and runs
 * `search` with no overrides. A failure is shown with its typed code and remedy (re-index on a
 * contract mismatch, start the dependency...).
 */
import { useState } from 'react';
import type { ProbeResult } from '../../../main/common/index';
import { api } from '../api/endpoints';
import { ErrorNote } from '../components/ErrorNote';
import { Panel } from '../components/Panel';
import { useAction } from '../hooks/useAsync';
import { hitPlace } from './hit-place';

export function ProbePanel() {
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<ProbeResult | null>(null);
  const action = useAction();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setResult(null);
    const r = await action.run(() => api.probe(query.trim() || 'cairn probe'));
    if (r) setResult(r);
  };

  return (
    <Panel id="probe" title="Probe the server">
      <form className="row" onSubmit={submit}>
        <label htmlFor="probe-query">Probe query</label>
        <input
          id="probe-query"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="what an agent might ask"
          data-testid="probe-query"
        />
        <button type="submit" className="btn primary" disabled={action.busy} data-testid="probe-run">
          {action.busy ? 'Probing…' : 'Probe'}
        </button>
      </form>
      {action.busy ? (
        <p role="status" className="muted">
          Connecting over MCP…
        </p>
      ) : null}
      {action.error ? <ErrorNote error={action.error} testId="probe-error" /> : null}
      {result ? <ProbeOutcome result={result} /> : null}
      {!result && !action.busy && !action.error ? (
        <p className="muted">Runs the real MCP client against the in-process address.</p>
      ) : null}
    </Panel>
  );
}

function ProbeOutcome({ result }: { result: ProbeResult }) {
  return (
    <div data-testid="probe-result" data-ok={String(result.ok)}>
      <p>
        {result.ok ? <span className="pill running">ok</span> : <span className="pill error">failed</span>} in{' '}
        {Math.round(result.latency_ms)} ms
        {result.transport_url ? (
          <>
            {' '}
            via <code>{result.transport_url}</code> <span className="tag">in-process</span>
          </>
        ) : null}
        {result.protocol_version ? (
          <>
            {' '}
            <span
              className="tag"
              data-testid="probe-protocol"
              title={result.era === 'modern' ? 'per-request protocol (server/discover)' : 'initialize handshake'}
            >
              MCP {result.protocol_version}
            </span>
          </>
        ) : null}
      </p>
      <p data-testid="probe-tools">Tools: {result.tools.length ? result.tools.join(', ') : 'none listed'}</p>
      {result.ok ? (
        result.hits.length ? (
          <ol className="hits compact" data-testid="probe-hits">
            {result.hits.map((h) => (
              <li key={`${h.path}:${h.page ?? 0}:${h.start_line}`} data-testid="probe-hit">
                <code>
                  {h.path}
                  {hitPlace(h)}
                </code>{' '}
                <span className="muted">score {h.score.toFixed(3)}</span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="empty">The search succeeded with no hits (add or index a folder).</p>
        )
      ) : (
        <ErrorNote error={result.error} testId="probe-error" />
      )}
    </div>
  );
}
