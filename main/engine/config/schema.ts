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

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();

function validatorFor(spec: SettingSpec): ValidateFunction {
  let v = validators.get(spec.key);
  if (!v) {
    v = ajv.compile(spec.schema);
    validators.set(spec.key, v);
  }
  return v;
}

function describe(key: string, err: ErrorObject): ValidationIssue {
  const where = err.instancePath ? `${key}${err.instancePath.replace(/\//g, '.')}` : key;
  const rule = err.keyword;
  const detail = err.keyword === 'enum' ? `must be one of ${JSON.stringify((err.params as { allowedValues: unknown[] }).allowedValues)}` : err.message ?? 'is invalid';
  return { key, rule, message: `${where} ${detail}` };
}

/**
 * Per-key issues for a patch of dotted keys; unknown keys are issues too. Given the current
 * values, the rules across keys (SETTING_RULES) are checked on the patch over them, for the rules
 * the patch touches.
 */
export function validateValues(values: Record<string, unknown>, current?: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(values)) {
    const spec = SETTINGS.find((s) => s.key === key);
    if (!spec) {
      issues.push({ key, rule: 'known_key', message: `${key} is not a Cairn setting` });
      continue;
    }
    const validate = validatorFor(spec);
    if (!validate(value)) issues.push(...(validate.errors ?? []).slice(0, 3).map((e) => describe(key, e)));
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
