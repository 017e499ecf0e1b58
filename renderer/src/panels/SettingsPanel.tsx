/**
 * Every setting, generated from the one settings table (GET /api/settings/spec, built from
 * main/common/settings.ts): its meaning, accepted form, default, when a change applies, a
 * "modified" marker and a reset. A value is checked by the engine as it is typed (the same rules
 * as the save), and a save that needs a confirmation (a new address or port) asks for it.
 */
import { useEffect, useMemo, useState } from 'react';
import type { SettingSpec, ValidationIssue } from '../../../main/common/index';
import type { ErrorBody } from '../../../main/common/errors';
import { api } from '../api/endpoints';
import { ApiError, describeError, loadErrorOf } from '../api/client';
import { ErrorNote } from '../components/ErrorNote';
import { Loading, Panel } from '../components/Panel';
import { useEngine } from '../hooks/engine-context';
import { useSettings } from '../hooks/useSettings';

const APPLIES: Record<SettingSpec['applies'], string> = {
  live: 'applies at once',
  remount: 'applies on remount',
  restart: 'applies at the next start',
};

/** Managed by their own panels, which do more than save a value. */
const ELSEWHERE: Record<string, [string, string]> = {
  folders: ['#index', 'Add and remove folders in Index'],
  'embedding.model': ['#index', 'Change the model in Index (it is downloaded and checked first)'],
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Kind = 'boolean' | 'integer' | 'number' | 'enum' | 'string' | 'list' | 'nullable-number';

function kindOf(spec: SettingSpec): Kind {
  const s = spec.schema as { type?: string | string[]; enum?: unknown[]; items?: { type?: string } };
  if (Array.isArray(s.enum)) return 'enum';
  if (Array.isArray(s.type) && s.type.includes('null')) return 'nullable-number';
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'integer') return 'integer';
  if (s.type === 'number') return 'number';
  if (s.type === 'array') return 'list';
  return 'string';
}

/** The text a person edits, and the value it means (null text: not a value yet). */
function toText(kind: Kind, v: unknown): string {
  if (kind === 'list') return Array.isArray(v) ? v.join('\n') : '';
  if (v === null || v === undefined) return '';
  return String(v);
}

function fromText(kind: Kind, text: string): unknown {
  switch (kind) {
    case 'list':
      return text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
    case 'integer':
    case 'number':
      return text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text);
    case 'nullable-number':
      return text.trim() === '' ? null : Number.isNaN(Number(text)) ? text : Number(text);
    default:
      return text;
  }
}

function range(spec: SettingSpec): string | null {
  const s = spec.schema as { minimum?: number; maximum?: number };
  if (s.minimum !== undefined && s.maximum !== undefined) return `${s.minimum} to ${s.maximum}`;
  if (s.minimum !== undefined) return `at least ${s.minimum}`;
  return null;
}

function SettingRow({ spec, value, onSaved }: { spec: SettingSpec; value: unknown; onSaved: () => Promise<void> }) {
  const kind = kindOf(spec);
  const [draft, setDraft] = useState<unknown>(value);
  const [checked, setIssues] = useState<ValidationIssue[]>([]);
  const [error, setError] = useState<ErrorBody | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  // The draft follows the engine's value when that changes (adjusted while rendering, not in an effect).
  const [base, setBase] = useState<unknown>(value);
  if (!same(base, value)) {
    setBase(value);
    setDraft(value);
  }
  const dirty = !same(draft, value);
  // What the last check found, for the draft being edited; a saved or reset value has no issues.
  const issues = dirty ? checked : [];
  const modified = !same(value, spec.default);
  const id = `setting-${spec.key.replace(/\./g, '-')}`;

  // Checked by the engine's own rules as the person types (same code as the save).
  useEffect(() => {
    if (!dirty) return;
    const timer = setTimeout(() => {
      api.validateSettings({ values: { [spec.key]: draft } }).then(
        (r) => setIssues(r.issues),
        () => undefined,
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [draft, dirty, spec.key]);

  const save = async (v: unknown) => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      try {
        await api.updateSettings({ values: { [spec.key]: v } });
      } catch (err) {
        const needs =
          err instanceof ApiError && err.body.code === 'conflict' && err.body.details?.needs_confirmation === true;
        if (!needs || !window.confirm(`${err instanceof ApiError ? err.body.message : ''}\n\nSave anyway?`)) throw err;
        await api.updateSettings({ values: { [spec.key]: v }, confirm: true });
      }
      setSaved(true);
      await onSaved();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const hard = issues.filter((i) => !i.needs_confirmation);
  const control = (() => {
    const common = {
      id,
      'aria-invalid': hard.length > 0,
      'aria-describedby': `${id}-about`,
      'data-testid': id,
    } as const;
    switch (kind) {
      case 'boolean':
        return (
          <input type="checkbox" {...common} checked={draft === true} onChange={(e) => setDraft(e.target.checked)} />
        );
      case 'enum':
        return (
          <select {...common} value={String(draft)} onChange={(e) => setDraft(e.target.value)}>
            {((spec.schema as { enum: unknown[] }).enum ?? []).map((o) => (
              <option key={String(o)} value={String(o)}>
                {String(o)}
              </option>
            ))}
          </select>
        );
      case 'list':
        return (
          <textarea
            {...common}
            rows={Math.min(6, Math.max(2, (Array.isArray(draft) ? draft.length : 0) + 1))}
            value={toText(kind, draft)}
            onChange={(e) => setDraft(fromText(kind, e.target.value))}
          />
        );
      case 'integer':
      case 'number':
      case 'nullable-number': {
        const s = spec.schema as { minimum?: number; maximum?: number };
        return (
          <input
            type="number"
            {...common}
            className="narrow-wide"
            min={s.minimum}
            max={s.maximum}
            step={kind === 'integer' ? 1 : 'any'}
            placeholder={kind === 'nullable-number' ? 'automatic' : undefined}
            value={toText(kind, draft)}
            onChange={(e) => setDraft(fromText(kind, e.target.value))}
          />
        );
      }
      default:
        return (
          <input
            type="text"
            {...common}
            className="wide mono"
            value={toText(kind, draft)}
            onChange={(e) => setDraft(fromText(kind, e.target.value))}
            spellCheck={false}
          />
        );
    }
  })();

  return (
    <li className="setting" data-testid="setting-row" data-key={spec.key} data-modified={modified}>
      <div className="setting-head">
        <label htmlFor={id}>
          <code>{spec.key}</code>
        </label>
        {modified ? (
          <span
            className="tag modified"
            data-testid="setting-modified"
            title={`Default: ${toText(kind, spec.default) || '(empty)'}`}
          >
            modified
          </span>
        ) : null}
        <span className="tag" data-testid="setting-applies">
          {APPLIES[spec.applies]}
        </span>
      </div>
      <p className="muted small" id={`${id}-about`}>
        {spec.description}
        {spec.hint ? ` Accepted: ${spec.hint}.` : ''}
        {range(spec) ? ` Range: ${range(spec)}.` : ''} Default:{' '}
        <code>{kind === 'list' ? JSON.stringify(spec.default) : toText(kind, spec.default) || '(empty)'}</code>.
      </p>
      <div className="row">
        {control}
        <button
          type="button"
          className="btn small primary"
          disabled={!dirty || busy || hard.length > 0}
          onClick={() => void save(draft)}
          data-testid={`${id}-save`}
        >
          {busy ? 'Saving…' : 'Save'}
        </button>
        {dirty ? (
          <button type="button" className="btn small" onClick={() => setDraft(value)}>
            Undo
          </button>
        ) : null}
        {modified && !dirty ? (
          <button
            type="button"
            className="btn small"
            disabled={busy}
            onClick={() => void save(structuredClone(spec.default))}
            data-testid={`${id}-reset`}
          >
            Reset to default
          </button>
        ) : null}
        {saved && !dirty ? (
          <span className="ok-text small" role="status" data-testid={`${id}-saved`}>
            Saved
            {spec.applies === 'live'
              ? ''
              : spec.applies === 'remount'
                ? ': remount to apply (Server card)'
                : ': used from the next start'}
          </span>
        ) : null}
      </div>
      {issues.map((i) => (
        <p
          key={i.rule + i.message}
          className={i.needs_confirmation ? 'warn-text small' : 'error-text small'}
          data-testid={`${id}-issue`}
        >
          {i.message}
        </p>
      ))}
      {error ? <ErrorNote error={error} testId={`${id}-error`} /> : null}
    </li>
  );
}

export function SettingsPanel() {
  const { values, loadError, reload } = useSettings();
  const { epoch, refresh } = useEngine();
  const [specs, setSpecs] = useState<SettingSpec[] | null>(null);
  const [specError, setSpecError] = useState<ErrorBody | null>(null);
  const [filter, setFilter] = useState('');
  const [modifiedOnly, setModifiedOnly] = useState(false);

  useEffect(() => {
    api.settingsSpec().then(
      (s) => (setSpecs([...s.settings]), setSpecError(null)),
      (err) => setSpecError(loadErrorOf(err)),
    );
  }, [epoch]);

  const groups = useMemo(() => {
    const out = new Map<string, SettingSpec[]>();
    const needle = filter.trim().toLowerCase();
    for (const s of specs ?? []) {
      if (needle && !`${s.key} ${s.description}`.toLowerCase().includes(needle)) continue;
      if (modifiedOnly && values && same(values[s.key], s.default)) continue;
      const group = s.key.includes('.') ? s.key.split('.')[0] : 'folders';
      out.set(group, [...(out.get(group) ?? []), s]);
    }
    return out;
  }, [specs, filter, modifiedOnly, values]);

  const error = loadError ?? specError;
  if (error)
    return (
      <Panel id="settings" title="Settings">
        <ErrorNote error={error} />
      </Panel>
    );
  if (!values || !specs)
    return (
      <Panel id="settings" title="Settings">
        <Loading what="settings" />
      </Panel>
    );
  const modifiedCount = specs.filter((s) => !same(values[s.key], s.default)).length;
  return (
    <Panel id="settings" title="Settings">
      <div className="row">
        <label htmlFor="settings-filter" className="sr-only">
          Search settings
        </label>
        <input
          id="settings-filter"
          type="search"
          className="wide"
          placeholder="Search settings"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          data-testid="settings-filter"
        />
        <label>
          <input
            type="checkbox"
            checked={modifiedOnly}
            onChange={(e) => setModifiedOnly(e.target.checked)}
            data-testid="settings-modified-only"
          />{' '}
          Modified only ({modifiedCount})
        </label>
      </div>
      {groups.size === 0 ? <p className="empty">No setting matches.</p> : null}
      {[...groups].map(([group, list]) => (
        <section key={group} aria-label={`${group} settings`}>
          <h3 className="setting-group">{group}</h3>
          <ul className="settings-list">
            {list.map((spec) =>
              ELSEWHERE[spec.key] ? (
                <li key={spec.key} className="setting" data-testid="setting-row" data-key={spec.key}>
                  <div className="setting-head">
                    <code>{spec.key}</code>
                  </div>
                  <p className="muted small">
                    {spec.description} <a href={ELSEWHERE[spec.key][0]}>{ELSEWHERE[spec.key][1]}</a>.
                  </p>
                </li>
              ) : (
                <SettingRow
                  key={spec.key}
                  spec={spec}
                  value={values[spec.key]}
                  onSaved={async () => {
                    await reload();
                    await refresh();
                  }}
                />
              ),
            )}
          </ul>
        </section>
      ))}
    </Panel>
  );
}
