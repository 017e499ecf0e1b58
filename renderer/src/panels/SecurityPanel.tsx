/**
 * Host/Origin allowlists and the two switches. Patterns are checked by the engine's own validator
 * (POST /api/settings/validate, the same rules that guard writes) as the person types, so the
 * workbench never disagrees with the engine about what is valid. `*:*` is allowed but warned about:
 * it turns DNS-rebinding protection into a formality.
 */
import { useEffect, useState } from 'react';
import type { ValidationIssue } from '../../../main/common/admin';
import { api } from '../api/endpoints';
import { ErrorNote } from '../components/ErrorNote';
import { SettingSwitch } from '../components/SettingSwitch';
import { Loading, Panel } from '../components/Panel';
import { useAction } from '../hooks/useAsync';
import { useSettings } from '../hooks/useSettings';
import { ApiKeySection } from './ApiKeySection';

const lines = (text: string) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
const isWildAll = (p: string) => p === '*' || p === '*:*' || /^[a-z]+:\/\/\*(:\*)?$/.test(p);

export function SecurityPanel() {
  const { values, loadError, save } = useSettings();
  const [hosts, setHosts] = useState('');
  const [origins, setOrigins] = useState('');
  const [issues, setIssues] = useState<ValidationIssue[]>([]);
  const action = useAction();
  const toggle = useAction();

  // Each field follows the engine's value of its own setting when that changes, and only then: a
  // save of anything else (a switch) must not throw away a list being edited. Adjusted while
  // rendering, as React advises, not in an effect that renders twice.
  const engineHosts = values ? (values['mcp.allowed_hosts'] as string[]).join('\n') : null;
  const engineOrigins = values ? (values['mcp.allowed_origins'] as string[]).join('\n') : null;
  const [shownHosts, setShownHosts] = useState<string | null>(null);
  const [shownOrigins, setShownOrigins] = useState<string | null>(null);
  if (engineHosts !== null && engineHosts !== shownHosts) {
    setShownHosts(engineHosts);
    setHosts(engineHosts);
  }
  if (engineOrigins !== null && engineOrigins !== shownOrigins) {
    setShownOrigins(engineOrigins);
    setOrigins(engineOrigins);
  }

  // Validate as the person types (debounced), against the engine's rules.
  useEffect(() => {
    if (!values) return;
    const id = setTimeout(async () => {
      try {
        const r = await api.validateSettings({
          values: { 'mcp.allowed_hosts': lines(hosts), 'mcp.allowed_origins': lines(origins) },
        });
        setIssues(r.issues);
      } catch {
        // A failed validation call is not a validation result; the save will report any error.
      }
    }, 250);
    return () => clearTimeout(id);
  }, [hosts, origins, values]);

  if (loadError)
    return (
      <Panel id="security" title="Security">
        <ErrorNote error={loadError} />
      </Panel>
    );
  if (!values)
    return (
      <Panel id="security" title="Security">
        <Loading what="security settings" />
      </Panel>
    );

  const wild = [...lines(hosts), ...lines(origins)].filter(isWildAll);
  const hostIssues = issues.filter((i) => i.key.startsWith('mcp.allowed_hosts'));
  const originIssues = issues.filter((i) => i.key.startsWith('mcp.allowed_origins'));
  const rebinding = values['mcp.enable_dns_rebinding_protection'] === true;
  const requireKey = values['mcp.require_api_key'] === true;

  return (
    <Panel id="security" title="Security">
      <fieldset className="switches">
        <legend>Protection</legend>
        <SettingSwitch
          value={rebinding}
          testId="toggle-rebinding"
          onSave={(v) => toggle.run(() => save({ 'mcp.enable_dns_rebinding_protection': v }))}
        >
          Check Host and Origin (DNS-rebinding protection)
        </SettingSwitch>
        {!rebinding ? (
          <p className="warn-text">⚠ Any web page you visit could reach the server through DNS rebinding.</p>
        ) : null}
        <SettingSwitch
          value={requireKey}
          testId="toggle-require-key"
          onSave={(v) => toggle.run(() => save({ 'mcp.require_api_key': v }))}
        >
          Require the API key on every MCP request
        </SettingSwitch>
      </fieldset>
      {toggle.error ? <ErrorNote error={toggle.error} /> : null}

      <ApiKeySection requireKey={requireKey} />

      <form
        className="allowlists"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(() => save({ 'mcp.allowed_hosts': lines(hosts), 'mcp.allowed_origins': lines(origins) }));
        }}
      >
        <div>
          <label htmlFor="allowed-hosts">Allowed hosts (one per line; * is a wildcard)</label>
          <textarea
            id="allowed-hosts"
            rows={4}
            value={hosts}
            onChange={(e) => setHosts(e.target.value)}
            aria-invalid={hostIssues.length > 0}
            data-testid="allowed-hosts"
          />
          <Issues list={hostIssues} />
        </div>
        <div>
          <label htmlFor="allowed-origins">Allowed origins (one per line)</label>
          <textarea
            id="allowed-origins"
            rows={4}
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            aria-invalid={originIssues.length > 0}
            data-testid="allowed-origins"
          />
          <Issues list={originIssues} />
        </div>
        {wild.length ? (
          <p className="warn-text" role="alert" data-testid="wildcard-warning">
            ⚠ {wild.join(', ')} allows every host or origin: any page or process that can reach this port could use your
            index.
          </p>
        ) : null}
        <button
          type="submit"
          className="btn primary"
          disabled={action.busy || issues.length > 0}
          data-testid="save-allowlists"
        >
          {action.busy ? 'Saving…' : 'Save allowlists'}
        </button>
      </form>
      {action.error ? <ErrorNote error={action.error} /> : null}
    </Panel>
  );
}

function Issues({ list }: { list: ValidationIssue[] }) {
  if (!list.length) return null;
  return (
    <ul className="issues" data-testid="validation-issues">
      {list.map((i) => (
        <li key={`${i.key}:${i.rule}:${i.message}`} data-rule={i.rule}>
          {i.message}
        </li>
      ))}
    </ul>
  );
}
