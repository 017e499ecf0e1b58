import Conf from 'conf';
import { readFileSync, statSync } from 'node:fs';
import { SETTINGS, defaultSettings } from '../../common/settings.js';
import type { ValidationIssue } from '../../common/admin.js';
import type { SettingsApi, SettingsSnapshot } from '../api.js';
import { CairnError } from '../errors.js';
import { confSchema, validateValues } from './schema.js';

function getPath(obj: Record<string, unknown>, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

const SPECS = new Map(SETTINGS.map((s) => [s.key, s]));

/** Values handed out are the caller's own: nobody can change the cached copy through them. */
function own<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  // Lists of strings (the Host and Origin allowlists, read on every MCP request) need no deep copy.
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return v.slice() as T;
  return structuredClone(v);
}

/**
 * What identifies one version of the file: conf replaces it atomically (a new inode), and an edit
 * in place changes its size or times. Null when it does not exist.
 */
function fileStamp(path: string): string | null {
  const st = statSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : null;
}

/**
 * Settings persisted with `conf` (what electron-store wraps) as `config.json` in the data folder.
 * Every write is validated key by key first, so an invalid value is refused with the key and the
 * rule, and the file on disk stays the last valid one.
 */
export class SettingsStore implements SettingsApi {
  private readonly conf: Conf<Record<string, unknown>>;
  private readonly listeners = new Set<(keys: string[]) => void>();
  private cached: { stamp: string | null; store: Record<string, unknown> } | null = null;
  private snap: { store: Record<string, unknown>; view: SettingsSnapshot } | null = null;

  constructor(dir: string) {
    try {
      this.conf = new Conf<Record<string, unknown>>({
        cwd: dir,
        configName: 'config',
        projectName: 'cairn',
        schema: confSchema() as never,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: true,
        // Folder paths and settings are this user's business only (the data folder is 0700 too).
        configFileMode: 0o600,
      });
    } catch (err) {
      throw SettingsStore.loadError(dir, err);
    }
  }

  /** Names the offending key and rule when the file on disk does not validate; the file is left as it is. */
  private static loadError(dir: string, err: unknown): CairnError {
    const file = `${dir}/config.json`;
    let issues: ValidationIssue[] = [];
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const flat = Object.fromEntries(
        SETTINGS.map((s) => [s.key, getPath(raw, s.key)]).filter(([, v]) => v !== undefined),
      );
      issues = validateValues(flat);
    } catch (parseErr) {
      issues = [{ key: '(file)', rule: 'json', message: `${file} is not valid JSON: ${(parseErr as Error).message}` }];
    }
    const first = issues[0];
    const message = first
      ? `Invalid configuration in ${file}: ${first.message}`
      : `Cannot load ${file}: ${(err as Error).message}`;
    return new CairnError('config_invalid', message, {
      remedy: `Fix or remove ${file}; it was left untouched.`,
      details: { issues },
    });
  }

  /**
   * conf reads, parses and validates config.json on every read (~0.17 ms), and each MCP request
   * reads several settings (Host, Origin, key, body limit). The parsed file is kept while its stat
   * is unchanged, so an edit by hand or by another process is still seen on the next read, and
   * an invalid edit still throws there, as conf does.
   */
  private store(): Record<string, unknown> {
    // A stat per read (~6 us): even an edit this process made a moment ago is seen.
    const stamp = fileStamp(this.conf.path);
    if (!this.cached || this.cached.stamp !== stamp) this.cached = { stamp, store: this.conf.store };
    return this.cached.store;
  }

  all(): Record<string, unknown> {
    const out = defaultSettings();
    const store = this.store();
    for (const spec of SETTINGS) {
      const v = getPath(store, spec.key);
      if (v !== undefined) out[spec.key] = own(v);
    }
    return out;
  }

  snapshot(): SettingsSnapshot {
    const store = this.store();
    if (this.snap?.store === store) return this.snap.view;
    const values: Record<string, unknown> = defaultSettings();
    for (const spec of SETTINGS) {
      const v = getPath(store, spec.key);
      if (v !== undefined) values[spec.key] = structuredClone(v);
    }
    const frozen = deepFreeze(values);
    const view: SettingsSnapshot = {
      values: frozen,
      get<T = unknown>(key: string): T {
        if (!SPECS.has(key)) throw new CairnError('invalid_argument', `${key} is not a Cairn setting`);
        return frozen[key] as T;
      },
    };
    this.snap = { store, view };
    return view;
  }

  get<T = unknown>(key: string): T {
    const spec = SPECS.get(key);
    if (!spec) throw new CairnError('invalid_argument', `${key} is not a Cairn setting`);
    const v = getPath(this.store(), key);
    return (v === undefined ? structuredClone(spec.default) : own(v)) as T;
  }

  /** The patch on its own and, across settings, on the values it would leave. */
  validate(values: Record<string, unknown>): ValidationIssue[] {
    return validateValues(values, this.all());
  }

  set(values: Record<string, unknown>): void {
    const issues = this.validate(values);
    if (issues.length > 0) {
      throw new CairnError('config_invalid', issues[0].message, { details: { issues } });
    }
    const before = this.all();
    const changed = Object.keys(values).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(values[k]));
    if (changed.length === 0) return;
    // One write for the whole patch: conf validates the resulting store and writes atomically.
    const next = structuredClone(this.conf.store);
    for (const key of changed) setPath(next, key, values[key]);
    try {
      this.conf.store = next;
    } catch (err) {
      // A write that failed for want of space is no invalid setting: the file keeps its content.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT' || /ENOSPC|no space left/i.test((err as Error).message)) {
        throw new CairnError('disk_full', `The disk holding the settings is full: ${(err as Error).message}`, {
          remedy: 'Free space on that disk, then save the settings again; config.json keeps its last content.',
          cause: err,
        });
      }
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
        throw new CairnError('forbidden', `The settings cannot be written: ${(err as Error).message}`, { cause: err });
      throw new CairnError('config_invalid', (err as Error).message);
    } finally {
      this.cached = null;
    }
    for (const l of this.listeners) l(changed);
  }

  onChange(listener: (keys: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

function setPath(obj: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = structuredClone(value);
}
