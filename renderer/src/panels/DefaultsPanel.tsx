/**
 * The search defaults agents get when a call gives none, and the toolset. The mounted server keeps
 * what it captured until it is remounted, so a save says so right here and offers the remount
 * (the status card shows the same notice), rather than changing behaviour silently.
 */
import { useState } from 'react';
import type { SearchMode } from '../../../main/common/search';
import { ErrorNote } from '../components/ErrorNote';
import { Loading, Panel } from '../components/Panel';
import { useAction } from '../hooks/useAsync';
import { useSettings } from '../hooks/useSettings';
import { useEngine } from '../hooks/engine-context';
import { RemountButton } from '../components/RemountButton';
import { MODES } from './modes';

export function DefaultsPanel() {
  const { values, loadError, save } = useSettings();
  const [mode, setMode] = useState<SearchMode>('tribrid');
  const [topK, setTopK] = useState(20);
  const [toolset, setToolset] = useState<'agent' | 'full'>('agent');
  const action = useAction();
  const { mcp } = useEngine();
  const [saved, setSaved] = useState(false);

  // The form follows the engine's values whenever they change (load, save, reconnect): adjusted
  // while rendering, as React advises, not in an effect that renders twice.
  const [shownValues, setShownValues] = useState<typeof values>(null);
  if (values && values !== shownValues) {
    setShownValues(values);
    setMode(values['mcp.default_mode'] as SearchMode);
    setTopK(Number(values['mcp.default_top_k']));
    setToolset(values['mcp.toolset'] as 'agent' | 'full');
  }

  if (loadError)
    return (
      <Panel id="defaults" title="Server defaults">
        <ErrorNote error={loadError} />
      </Panel>
    );
  if (!values)
    return (
      <Panel id="defaults" title="Server defaults">
        <Loading what="settings" />
      </Panel>
    );

  const pending = (mcp?.remount_pending ?? [])
    .map((p) => p.key)
    .filter((k) => k === 'mcp.default_mode' || k === 'mcp.default_top_k' || k === 'mcp.toolset')
    .map((k) => k.replace(/^mcp\./, ''));
  const dirty =
    mode !== values['mcp.default_mode'] || topK !== values['mcp.default_top_k'] || toolset !== values['mcp.toolset'];
  return (
    <Panel id="defaults" title="Server defaults">
      <form
        className="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void action.run(async () => {
            await save({ 'mcp.default_mode': mode, 'mcp.default_top_k': topK, 'mcp.toolset': toolset });
            setSaved(true);
          });
        }}
      >
        <label htmlFor="default-mode">Default mode</label>
        <select
          id="default-mode"
          value={mode}
          onChange={(e) => setMode(e.target.value as SearchMode)}
          data-testid="default-mode"
        >
          {MODES.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
        <label htmlFor="default-top-k">Default top_k</label>
        <input
          id="default-top-k"
          type="number"
          min={1}
          max={100}
          value={topK}
          onChange={(e) => setTopK(Number(e.target.value))}
          data-testid="default-top-k"
        />
        <label htmlFor="toolset">Toolset</label>
        <select
          id="toolset"
          value={toolset}
          onChange={(e) => setToolset(e.target.value as 'agent' | 'full')}
          data-testid="toolset-select"
        >
          <option value="agent">agent: search and read</option>
          <option value="full">full: adds grep, index_*, server_status and two search aliases</option>
        </select>
        <div />
        <button type="submit" className="btn primary" disabled={!dirty || action.busy} data-testid="save-defaults">
          {action.busy ? 'Saving…' : 'Save defaults'}
        </button>
      </form>
      <p className="hint">
        Applies when the MCP server is remounted: agents keep a stable set of tools and defaults until then.
      </p>
      {saved && !dirty ? (
        <div className="saved-note" role="status" data-testid="defaults-saved">
          {pending.length > 0 ? (
            <>
              <p>
                <strong>Saved.</strong> Agents get the new {pending.join(', ')} after a remount.
              </p>
              <RemountButton testId="defaults-remount" />
            </>
          ) : (
            <p className="ok-text">
              <strong>Saved</strong>, and in use by the mounted server.
            </p>
          )}
        </div>
      ) : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </Panel>
  );
}
