/**
 * Ready-made client configuration from GET /api/clients: the engine writes the snippets (it knows
 * the advertised URL, the key header and the stdio command), the workbench shows and copies them,
 * and installs after an explicit confirmation (the engine keeps a backup of the file it changes).
 */
import { useEffect, useState } from 'react';
import type { ClientConfig } from '../../../main/common/admin';
import type { ErrorBody } from '../../../main/common/errors';
import { api } from '../api/endpoints';
import { describeError } from '../api/client';
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
      (err) => live && setError(describeError(err)),
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
      {clients?.map((c) => <ClientCard key={c.id} client={c} keyed={mcp?.security.require_api_key === true && c.uses === 'http'} />)}
    </Panel>
  );
}

/** The snippet as shown holds a placeholder for the key; this copies it with the real key in. */
function CopyWithKey({ id }: { id: ClientConfig['id'] }) {
  const action = useAction();
  const [text, setText] = useState<string | null>(null);
  if (text) return <CopyButton text={text} label="Copy with key" testId={`copy-keyed-${id}`} />;
  return (
    <>
      <button
        type="button"
        className="btn small"
        disabled={action.busy}
        onClick={() => action.run(async () => setText((await api.clients(true)).find((c) => c.id === id)?.snippet ?? null))}
      >
        Load with key
      </button>
      {action.error ? <ErrorNote error={action.error} /> : null}
    </>
  );
}

function ClientCard({ client, keyed }: { client: ClientConfig; keyed: boolean }) {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const install = () => {
    const where = client.config_path ?? 'its configuration file';
    if (!window.confirm(`Add Cairn to ${client.name}'s configuration in ${where}? A backup of the current file is kept.`)) return;
    void action.run(async () => {
      const r = await api.installClient(client.id);
      const backup = typeof r?.backup_path === 'string' ? ` (previous file kept as ${r.backup_path})` : '';
      setDone(`Installed into ${typeof r?.config_path === 'string' ? r.config_path : where}${backup}. Restart ${client.name} to pick it up.`);
    });
  };
  return (
    <article className="client" data-testid={`client-${client.id}`} aria-labelledby={`client-${client.id}-name`}>
      <header className="row">
        <h3 id={`client-${client.id}-name`}>{client.name}</h3>
        <span className="tag">{client.uses === 'http' ? 'HTTP' : 'stdio'}</span>
        <span className="tag">{client.format}</span>
      </header>
      {client.config_path ? (
        <p className="muted small">
          Config file: <code>{client.config_path}</code>
        </p>
      ) : null}
      <pre className="snippet" data-testid="client-snippet" tabIndex={0} aria-label={`${client.name} configuration`}>
        {client.snippet}
      </pre>
      <div className="row">
        <CopyButton text={client.snippet} testId={`copy-${client.id}`} />
        {keyed ? <CopyWithKey id={client.id} /> : null}
        {client.installable ? (
          <button type="button" className="btn small" onClick={install} disabled={action.busy} data-testid={`install-${client.id}`}>
            {action.busy ? 'Installing…' : 'Install…'}
          </button>
        ) : null}
      </div>
      {done ? <p role="status" className="ok-text">{done}</p> : null}
      {action.error ? <ErrorNote error={action.error} /> : null}
    </article>
  );
}
