/**
 * The small, flat subset of JSON Schema the boundary contracts are written in, a checker for it,
 * and the TypeScript type each schema denotes. Flat on purpose: no `$ref`, no combinators, so the
 * very same object is what MCP clients see in `tools/list` and what every surface validates with.
 */

export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

export interface Schema {
  type?: SchemaType | readonly SchemaType[];
  enum?: readonly (string | number | boolean | null)[];
  description?: string;
  /** Informative only (clients show it); defaults are applied by the contract's parse functions. */
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Readonly<Record<string, Schema>>;
  required?: readonly string[];
  additionalProperties?: boolean | Schema;
  /** `date-time`: checked as an ISO 8601 date-time (Date.parse must accept it). */
  format?: 'date-time';
  /**
   * One of these shapes (a union: the probe's success or failure). Answers only: the MCP tools'
   * requests stay flat, so every client can read them.
   */
  anyOf?: readonly Schema[];
}

/** One thing wrong with an argument: the key it is under (one name for it everywhere) and why. */
export interface ArgumentIssue {
  key: string;
  message: string;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type Scalar<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'string' }
    ? string
    : S extends { type: 'integer' | 'number' }
      ? number
      : S extends { type: 'boolean' }
        ? boolean
        : S extends { type: 'null' }
          ? null
          : S extends { type: 'array'; items: infer I }
            ? FromSchema<I>[]
            : S extends { type: 'object'; properties: infer P }
              ? ObjectOf<P, S extends { required: readonly (infer R)[] } ? R : never, S>
              : S extends { type: 'object'; additionalProperties: infer A extends object }
                ? Record<string, FromSchema<A>>
                : S extends { type: 'object' }
                  ? Record<string, unknown>
                  : unknown;

type ObjectOf<P, R, S> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : never]: FromSchema<P[K]> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: FromSchema<P[K]>;
  } & (S extends { additionalProperties: false } ? unknown : Record<string, unknown>)
>;

/** The TypeScript type a schema (declared `as const`) denotes. `type: [T, 'null']` is `T | null`. */
export type FromSchema<S> = S extends { anyOf: readonly (infer B)[] }
  ? FromSchema<B>
  : S extends { type: readonly [infer T, 'null'] }
    ? Scalar<Omit<S, 'type'> & { type: T }> | null
    : Scalar<S>;

function typeName(t: SchemaType): string {
  return t === 'integer'
    ? 'an integer'
    : t === 'array'
      ? 'a list'
      : t === 'object'
        ? 'an object'
        : t === 'null'
          ? 'null'
          : `a ${t}`;
}

function isType(t: SchemaType, v: unknown): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
  }
}

/** How a value is quoted in a message: short, and never a multi-line dump. */
export function shown(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** The range a number or length must be in, in words ("from 1 to 100", "at least 1"). */
function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  if (min !== undefined) return `at least ${min}`;
  return `at most ${max}`;
}

/** The rule a schema states, in words, for messages ("an integer from 1 to 100"). */
export function describeRule(s: Schema): string {
  if (s.anyOf) return s.anyOf.map(describeRule).join(', or ');
  if (s.enum)
    return s.enum.length > 12
      ? `one of ${s.enum.slice(0, 10).map(String).join(', ')}… (${s.enum.length} values, listed in the schema)`
      : `one of ${s.enum.map(String).join(', ')}`;
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type as SchemaType];
  let rule = types.map(typeName).join(' or ') || 'a value';
  if (s.format === 'date-time') rule = 'an ISO 8601 date-time';
  if (s.minimum !== undefined || s.maximum !== undefined) rule += ` ${range(s.minimum, s.maximum)}`;
  if (s.minLength !== undefined || s.maxLength !== undefined) {
    rule =
      s.minLength === 1 && s.maxLength === undefined
        ? `a non-empty ${rule.replace(/^an? /, '')}`
        : `${rule} of ${range(s.minLength, s.maxLength)} characters`;
  }
  if (s.items) {
    const count =
      s.minItems !== undefined || s.maxItems !== undefined ? ` of ${range(s.minItems, s.maxItems)} items` : '';
    rule = `a list${count}, each ${describeRule(s.items)}`;
  }
  return rule;
}

/** The first way `value` breaks `schema`, or null. `key` names where it sits (`queries[2]`). */
export function checkSchema(schema: Schema, value: unknown, key: string): ArgumentIssue | null {
  if (schema.anyOf) {
    const issues = schema.anyOf.map((s) => checkSchema(s, value, key));
    return issues.includes(null) ? null : (issues[0] ?? null);
  }
  const fail = (): ArgumentIssue => ({ key, message: `${key} must be ${describeRule(schema)}, got ${shown(value)}` });
  if (schema.enum && !schema.enum.includes(value as never)) return fail();
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type as SchemaType];
    if (!types.some((t) => isType(t, value))) return fail();
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return fail();
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return fail();
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return fail();
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return fail();
    if (schema.maximum !== undefined && value > schema.maximum) return fail();
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return fail();
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return fail();
    if (schema.items) {
      for (let i = 0; i < value.length; i++) {
        const issue = checkSchema(schema.items, value[i], `${key}[${i}]`);
        if (issue) return issue;
      }
    }
  }
  if (
    (schema.properties || typeof schema.additionalProperties === 'object') &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value)
  ) {
    return checkObject(schema, value as Record<string, unknown>, key);
  }
  return null;
}

function checkObject(schema: Schema, value: Record<string, unknown>, key: string): ArgumentIssue | null {
  const props = schema.properties ?? {};
  const at = (k: string) => (key ? `${key}.${k}` : k);
  for (const k of schema.required ?? []) {
    if (value[k] === undefined) return { key: at(k), message: `${at(k)} is required: ${describeRule(props[k] ?? {})}` };
  }
  for (const [k, v] of Object.entries(value)) {
    const prop = props[k];
    if (!prop) {
      if (typeof schema.additionalProperties === 'object') {
        const issue = checkSchema(schema.additionalProperties, v, at(k));
        if (issue) return issue;
        continue;
      }
      if (schema.additionalProperties === false) {
        return { key: at(k), message: `unknown argument ${at(k)}; the arguments are ${Object.keys(props).join(', ')}` };
      }
      continue;
    }
    // An explicit null stands for "not given" (JSON has no undefined; the CLI and forms send null).
    if (v === undefined || (v === null && !acceptsNull(prop))) continue;
    const issue = checkSchema(prop, v, at(k));
    if (issue) return issue;
  }
  return null;
}

function acceptsNull(s: Schema): boolean {
  return s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'));
}

/**
 * A command-line value read as the schema's type ("abc" is no integer, "5" is 5), so that a flag
 * is refused with the same rule and message as the same argument anywhere else.
 */
export function fromText(
  schema: Schema,
  raw: string,
  key: string,
): { ok: true; value: unknown } | { ok: false; issue: ArgumentIssue } {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type as SchemaType];
  let value: unknown = raw;
  if (types.includes('integer') || types.includes('number')) {
    value = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw.trim()) ? Number(raw) : raw;
  } else if (types.includes('boolean')) {
    value = raw === 'true' ? true : raw === 'false' ? false : raw;
  }
  const issue = checkSchema(schema, value, key);
  return issue ? { ok: false, issue } : { ok: true, value };
}

/**
 * URL query parameters read as a query route's schema declares them, then checked like a JSON
 * body, so that a bad parameter gets the same typed issue as a bad body field: "5" is 5 where a
 * number is declared, `true`/`1` and `false`/`0` are booleans (`?reveal=1` is the documented
 * form), an empty value is not given (the admin client leaves absent values out, so "" never
 * means anything else), and a parameter given twice is refused rather than one copy guessed at.
 */
export function fromQuery<const S extends Schema>(
  schema: S,
  params: Iterable<[string, string]>,
): { ok: true; value: FromSchema<S> } | { ok: false; issue: ArgumentIssue } {
  const value: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [key, raw] of params) {
    if (seen.has(key)) return { ok: false, issue: { key, message: `${key} is given more than once` } };
    seen.add(key);
    if (raw === '') continue;
    const prop = schema.properties?.[key];
    if (!prop) {
      value[key] = raw;
      continue;
    }
    const bool = prop.type === 'boolean' && (raw === '1' || raw === '0') ? String(raw === '1') : raw;
    const read = fromText(prop, bool, key);
    if (!read.ok) return read;
    value[key] = read.value;
  }
  const issue = checkSchema(schema, value, '');
  // Checked against the schema just above: the value is what the schema's type says.
  return issue ? { ok: false, issue } : { ok: true, value: value as FromSchema<S> };
}
