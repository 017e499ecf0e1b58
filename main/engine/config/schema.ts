import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { SETTING_RULES, SETTINGS, type SettingSpec } from '../../common/settings.js';
import type { ValidationIssue } from '../../common/admin.js';

/** The nested JSON Schema `conf` validates the file against, built from the settings table. */
export function confSchema(): Record<string, unknown> {
  const root: Record<string, Record<string, unknown>> = {};
  for (const spec of SETTINGS) {
    const [head, ...rest] = spec.key.split('.');
    if (rest.length === 0) {
      root[head] = { ...spec.schema, default: spec.default };
      continue;
    }
    const group = (root[head] ??= { type: 'object', properties: {}, default: {} });
    (group.properties as Record<string, unknown>)[rest.join('.')] = { ...spec.schema, default: spec.default };
  }
  return root;
}

// verbose: errors carry the offending value, which the human message quotes.
const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
const validators = new Map<string, ValidateFunction>();

function validatorFor(spec: SettingSpec): ValidateFunction {
  let v = validators.get(spec.key);
  if (!v) {
    v = ajv.compile(spec.schema);
    validators.set(spec.key, v);
  }
  return v;
}

/** `/1/path` → `entry 2, path` (people count from 1). */
function position(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `entry ${Number(p) + 1}` : p))
    .join(', ');
}

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** The rule in words: what is accepted, never the regular expression behind it. */
function detailOf(spec: SettingSpec, err: ErrorObject): string {
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `must be ${String(p.type).replace(',', ' or ')}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'minLength':
      return Number(p.limit) <= 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} entries`;
    case 'pattern':
    case 'not':
      return spec.hint ? `must be ${spec.hint}` : 'is not in the accepted form';
    case 'required':
      return `needs ${String(p.missingProperty)}`;
    case 'additionalProperties':
      return `has an unknown field ${JSON.stringify(p.additionalProperty)}`;
    default:
      return err.message ?? 'is invalid';
  }
}

function describe(spec: SettingSpec, err: ErrorObject): ValidationIssue {
  const where = position(err.instancePath);
  const shown = err.keyword === 'required' || err.keyword === 'additionalProperties' ? '' : ` (${quoted(err.data)})`;
  const message = `${spec.key}${where ? `, ${where}` : ''}${shown} ${detailOf(spec, err)}.`;
  return { key: spec.key, rule: err.keyword, message };
}

/**
 * Per-key issues for a patch of dotted keys (unknown keys are issues too). With `current`, the
 * rules across settings run on the values the patch would leave, when it touches one of their keys.
 */
export function validateValues(values: Record<string, unknown>, current?: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(values)) {
    const spec = SETTINGS.find((s) => s.key === key);
    if (!spec) {
      issues.push({ key, rule: 'known_key', message: `${key} is not a Cairn setting.` });
      continue;
    }
    const validate = validatorFor(spec);
    if (!validate(value)) issues.push(...(validate.errors ?? []).slice(0, 3).map((e) => describe(spec, e)));
  }
  if (current && issues.length === 0) {
    const merged = { ...current, ...values };
    for (const r of SETTING_RULES) {
      if (!r.keys.some((k) => k in values)) continue;
      const message = r.check(merged);
      if (message) issues.push({ key: r.keys.find((k) => k in values) ?? r.keys[0], rule: r.rule, message });
    }
  }
  return issues;
}
