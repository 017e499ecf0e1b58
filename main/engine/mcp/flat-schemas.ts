/**
 * Tool schemas as tools/list lists them. The v2 SDK converts each schema with its own
 * `~standard.jsonSchema`, which stamps `$schema: draft 2020-12` on the root. Both protocol
 * revisions already make 2020-12 the dialect of a schema without `$schema`, while a validator set
 * up for draft-07 (common in 2025-era clients: Ajv's default) refuses to compile a schema naming
 * 2020-12. So the listed schema is the same schema without that one key; validation of arguments
 * still runs on the schema object itself.
 */
import type { McpServer } from '@modelcontextprotocol/server';

type JsonSchemaFn = (opts: { target: string }) => Record<string, unknown>;
interface StandardJson {
  jsonSchema?: { input: JsonSchemaFn; output: JsonSchemaFn };
  [key: string]: unknown;
}

const flattened = new WeakMap<object, object>();

function withoutDialect(fn: JsonSchemaFn): JsonSchemaFn {
  return (opts) => {
    const { $schema: _dialect, ...rest } = fn(opts);
    return rest;
  };
}

/** The same schema (a proxy: parsing, types and identity of behaviour unchanged) listing no `$schema`. */
export function flatSchema<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null) return schema;
  const std = (schema as { '~standard'?: StandardJson })['~standard'];
  if (!std?.jsonSchema) return schema;
  const cached = flattened.get(schema);
  if (cached) return cached as T;
  const { input, output } = std.jsonSchema;
  const standard: StandardJson = {
    ...std,
    jsonSchema: { input: withoutDialect(input), output: withoutDialect(output) },
  };
  const proxy = new Proxy(schema, {
    get: (target, key, receiver) => (key === '~standard' ? standard : (Reflect.get(target, key, receiver) as unknown)),
  });
  flattened.set(schema, proxy);
  return proxy;
}

/** Makes every tool registered on `server` from now on list its schemas without `$schema`. */
export function listFlatSchemas(server: McpServer): void {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: Record<string, unknown>,
    cb: unknown,
  ) => unknown;
  (server as unknown as { registerTool: typeof register }).registerTool = (name, config, cb) =>
    register(
      name,
      { ...config, inputSchema: flatSchema(config.inputSchema), outputSchema: flatSchema(config.outputSchema) },
      cb,
    );
}
