/**
 * Ready-made client configuration from GET /api/clients: the engine writes the snippets (it knows
 * the advertised URL, the key header and the stdio command), the workbench shows and copies them,
 * and installs after an explicit confirmation (the engine keeps a backup of the file it changes).
 */
import { useEffect, useState } from 'react';
import type { ClientConfig } from '../../../main/common/admin';
import type { ErrorBody } from '../../../main/common/errors';
import { api } from '../api/endpoints';
import { loadErrorOf } from '../api/client';
import { CopyButton } from '../components/CopyButton';
import { ErrorNote } from '../components/ErrorNote';
import { Empty, Loading, Panel } from '../components/Panel';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';

export function ClientsPanel() {
  const { epoch, mcp } = useEngine();
  const [clients, setClients] = useState<ClientConfig[] | null>(null);
  const [error, setError] = useState<ErrorBody | null>(null);
  // Snippets embed the advertised URL and whether a key is needed: reload when those change.
  const key = `${epoch}|${mcp?.advertised_url}|${mcp?.security.require_api_key}`;

  useEffect(() => {
    let live = true;
    api.clients().then(
      (c) => live && (setClients(c), setError(null)),
      (err) => live && setError(loadErrorOf(err)),
    );
    return () => {
      live = false;
    };
  }, [key]);

  return (
    <Panel id="clients" title="Connect a client">
      {error ? <ErrorNote error={error} /> : null}
      {!clients && !error ? <Loading what="client configurations" /> : null}
      {clients && clients.length === 0 ? <Empty>The engine offered no client configurations.</Empty> : null}
      {/* Keyed: the snippet holds the engine's key placeholder (KEY_PLACEHOLDER in clients/configs.ts); Claude Code's names an environment variable instead. */}
      {clients?.map((c) => (
        <ClientCard
          key={c.id}
          client={c}
          keyed={mcp?.security.require_api_key === true && c.snippet.includes('<your Cairn API key>')}
        />
      ))}
    </Panel>
  );
}

/** The snippet with the real key in it, fetched when copied (the page does not keep the key). */
async function keyedSnippet(id: ClientConfig['id']): Promise<string> {
  const snippet = (await api.clients({ reveal: true })).find((c) => c.id === id)?.snippet;
  if (!snippet) throw new Error('the engine offered no snippet with the key');
  return snippet;
}

function ClientCard({ client, keyed }: { client: ClientConfig; keyed: boolean }) {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const install = () => {
    const where = client.config_path ?? 'its configuration file';
    if (
      !window.confirm(`Add Cairn to ${client.name}'s configuration in ${where}? A backup of the current file is kept.`)
    )
      return;
    void action.run(async () => {
      const r = await api.installClient({ id: client.id, confirm: true });
      const backup = typeof r?.backup_path === 'string' ? ` (previous file kept as ${r.backup_path})` : '';
      setDone(
        `Installed into ${typeof r?.config_path === 'string' ? r.config_path : where}${backup}. Restart ${client.name} to pick it up.`,
      );
    });
  };
  return (
    <article className="client" data-testid={`client-${client.id}`} aria-labelledby={`client-${client.id}-name`}>
      <header className="row">
        <h3 id={`client-${client.id}-name`}>{client.name}</h3>
        <span className="tag">{client.uses === 'http' ? 'HTTP' : 'stdio'}</span>
        <span className="tag">{client.format}</span>
      </header>
      {keyed ? <p className="hint small">The key is shown as a placeholder here; Copy puts the real one in.</p> : null}
      {client.config_path ? (
        <p className="muted small">
          Config file: <code>{client.config_path}</code>
        </p>
      ) : null}
      <pre className="snippet" data-testid="client-snippet" tabIndex={0} aria-label={`${client.name} configuration`}>
        {client.snippet}
      </pre>
      <div className="row">
        {/* The snippet shows a placeholder; the main Copy puts the real key in, so it works as pasted. */}
        <CopyButton
          text={keyed ? () => keyedSnippet(client.id) : client.snippet}
          label={keyed ? 'Copy with the key' : 'Copy'}
          title={keyed ? 'Copies this configuration with your real API key in place of the placeholder' : undefined}
          testId={`copy-${client.id}`}
        />
        {client.installable ? (
          <button
            type="button"
            className="btn small"
            onClick={install}
            disabled={action.busy}
            data-testid={`install-${client.id}`}
          >
            {action.busy ? 'Installing…' : 'Install…'}
          </button>
        ) : null}
      </div>
      {done ? (
        <p role="status" className="ok-text">
          {done}
        </p>
      ) : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </article>
  );
}
