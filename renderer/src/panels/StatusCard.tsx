/**
 * What an agent must dial and whether it is safe: the advertised URL (the one to give clients),
 * the in-process URL (what the probe uses, labelled so nobody copies it into a client), transport,
 * security, toolset, and the defaults the mounted server captured. When the configuration has moved
 * on, the restart-pending notice names both pairs and offers the remount.
 */
import { api } from '../api/endpoints';
import { CopyButton } from '../components/CopyButton';
import { ErrorNote } from '../components/ErrorNote';
import { RemountButton } from '../components/RemountButton';
import { Loading, Panel } from '../components/Panel';
import { useEngine } from '../hooks/engine-context';
import { useAction } from '../hooks/useAsync';
import { describeEngineAway } from '../../../main/common/engine-away';

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function yesNo(v: boolean) {
  return v ? 'on' : 'off';
}

export function StatusCard() {
  const { mcp, engine, refresh, link, away } = useEngine();
  const requireKey = useAction();

  if (!mcp) {
    const t = away ? describeEngineAway(away) : null;
    return (
      <Panel id="status" title="MCP server">
        {link === 'offline' ? (
          <p className="status-line">
            <span className={`pill ${t?.severity === 'info' ? 'stopped' : 'error'}`} data-testid="mcp-state">
              {t ? t.pill : 'not answering'}
            </span>{' '}
            {/* The desktop app starts its engine itself: "start it with npm start" is for the browser only. */}
            {t ? (
              <span className="muted">{t.remedy ?? t.message}</span>
            ) : (
              <span className="muted">
                The engine does not answer; start it with <code>npm start</code> or <code>cairn serve</code>.
              </span>
            )}
          </p>
        ) : (
          <Loading what="server status" />
        )}
      </Panel>
    );
  }
  const s = mcp.security;
  // What the last answer said is only true while the engine still answers: once it does not, the
  // pill says so instead of a green "running" from before.
  const offline = link === 'offline' ? (away ? describeEngineAway(away).pill : 'not answering') : null;
  const state = offline ?? (!mcp.enabled ? 'disabled' : mcp.running ? 'running' : 'stopped');
  return (
    <Panel id="status" title="MCP server">
      <p className="status-line">
        <span
          className={`pill ${link === 'offline' ? 'error' : state}`}
          data-testid="mcp-state"
          title={
            link === 'offline' ? 'The engine does not answer: agents cannot reach Cairn until it is back' : undefined
          }
        >
          {state}
        </span>{' '}
        {engine ? <span className="muted">Cairn {engine.version}</span> : null}{' '}
        {engine?.paused ? (
          <>
            <span className="pill stopped" data-testid="status-paused">
              indexing paused
            </span>{' '}
          </>
        ) : null}
        <span className="muted">
          {mcp.requests.total} requests, {mcp.requests.errors} errors, {mcp.requests.rejected} rejected
        </span>
      </p>
      <dl className="facts">
        <dt>Advertised URL</dt>
        <dd>
          <code data-testid="advertised-url">{mcp.advertised_url}</code>{' '}
          <CopyButton text={mcp.advertised_url} testId="copy-advertised-url" />
          <div className="hint">Give this address to MCP clients.</div>
        </dd>
        <dt>In-process URL</dt>
        <dd>
          <code data-testid="in-process-url">{mcp.in_process_url}</code>{' '}
          <span className="tag">in-process (used by the probe)</span>
        </dd>
        <dt>Transport</dt>
        <dd data-testid="transport">
          Streamable HTTP, MCP {mcp.transport.protocol_versions.slice(0, 2).join(' and ')}, 2025-era clients{' '}
          {mcp.transport.stateless ? 'stateless' : `in sessions (${mcp.transport.sessions} open)`},{' '}
          {mcp.transport.json_response ? 'JSON responses' : 'SSE streams'}
        </dd>
        <dt>Security</dt>
        <dd data-testid="security-summary">
          DNS-rebinding protection {yesNo(s.dns_rebinding_protection)}; API key{' '}
          {s.require_api_key ? 'required' : 'not required'}
          {s.require_api_key && !s.api_key_set ? ' (but none is set!)' : ''};{' '}
          {s.loopback_only ? 'loopback only' : 'reachable beyond loopback'}
          <div className="hint">
            Hosts: {s.allowed_hosts.join(', ') || 'none'} · Origins: {s.allowed_origins.join(', ') || 'none'}
          </div>
          {s.key_storage?.notice ? (
            <div className="warn-text" data-testid="key-storage-notice">
              ⚠ {s.key_storage.notice}
            </div>
          ) : null}
          {s.warnings.map((w) => (
            <div className="warn-text" key={w} data-testid="security-warning">
              ⚠ {w}
            </div>
          ))}
        </dd>
        <dt>Toolset</dt>
        <dd data-testid="toolset">
          {mcp.toolset} ({mcp.tools.join(', ') || 'no tools'})
        </dd>
        <dt>Mounted defaults</dt>
        <dd data-testid="mounted-defaults">
          mode <code>{mcp.default_mode}</code>, top_k <code>{mcp.default_top_k}</code>
        </dd>
      </dl>
      {s.key_off_with_other_users ? (
        <div className="notice" role="alert" data-testid="multi-user-warning">
          <p>
            <strong>Other people can log in to this computer</strong> ({s.other_login_users.slice(0, 5).join(', ')}
            {s.other_login_users.length > 5 ? ', …' : ''}), and the API key is off: any of their programs can search and
            read your indexed folders through the MCP server. Require the key; then give it to your clients (Connect a
            client).
          </p>
          <button
            type="button"
            className="btn primary"
            disabled={requireKey.busy}
            data-testid="require-key"
            onClick={() =>
              requireKey.run(async () => {
                // A key first, so that requiring it never locks every client out with no key to give them.
                if (!s.api_key_set) await api.rotateApiKey({ action: 'generate' });
                await api.updateSettings({ values: { 'mcp.require_api_key': true } });
                await refresh();
              })
            }
          >
            {requireKey.busy ? 'Requiring the key…' : 'Require the API key'}
          </button>
          {requireKey.error ? <ErrorNote error={requireKey.error} /> : null}
        </div>
      ) : null}
      {mcp.remount_pending.length > 0 ? (
        <div className="notice" role="status" data-testid="restart-pending">
          <p>
            <strong>Remount pending.</strong> These saved settings are not in use yet: agents keep the old ones until
            the MCP server is remounted (a second or so; connected agents reconnect by themselves).
          </p>
          <ul className="pending-list">
            {mcp.remount_pending.map((p) => {
              const name = p.key.replace(/^mcp\./, '');
              return (
                <li key={p.key} data-testid="pending-setting">
                  <code>
                    {name}={shown(p.mounted)}
                  </code>{' '}
                  now,{' '}
                  <code>
                    {name}={shown(p.configured)}
                  </code>{' '}
                  after the remount
                </li>
              );
            })}
          </ul>
          <RemountButton />
        </div>
      ) : null}
    </Panel>
  );
}
