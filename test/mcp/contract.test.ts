/**
 * The search, read and grep contracts are declared once (main/common/requests.ts, results.ts):
 * the MCP tools list exactly those schemas, with the defaults the mounted server captured, and
 * the MCP tools, the admin API and the engine accept and refuse exactly what the declared schema
 * does. Boundary requests are generated from the declaration (every minimum, maximum and length
 * limit, one step inside and one outside), judged by Ajv against the schema a real MCP client
 * read from tools/list, and sent through every surface; a control shows the comparison catches a
 * limit that differs by one.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Schema } from '../../main/common/json-schema.js';
import {
  DEFAULTS,
  GREP_REQUEST_SCHEMA,
  LIMITS,
  parseGrepRequest,
  parseReadRequest,
  parseSearchRequest,
  READ_REQUEST_SCHEMA,
  SEARCH_REQUEST_SCHEMA,
  searchRequestSchema,
} from '../../main/common/requests.js';
import {
  GREP_RESULT_SCHEMA,
  outcomeSchema,
  READ_RESULT_SCHEMA,
  SEARCH_RESULT_SCHEMA,
} from '../../main/common/results.js';
import { settingSpec } from '../../main/common/settings.js';
import { GREP_RESPONSE_SCHEMA, READ_RESPONSE_SCHEMA, SEARCH_RESPONSE_SCHEMA } from '../../main/common/search.js';
import { connect, startFixture, type Fixture } from './fixtures.js';

let fx: Fixture;
let client: Client;
let tools: Tool[];
const ajv = new Ajv({ strict: false, allErrors: true });
const MOUNT = { mode: 'sparse', topK: 7 } as const;

before(async () => {
  fx = await startFixture({ 'mcp.toolset': 'full', 'mcp.default_mode': MOUNT.mode, 'mcp.default_top_k': MOUNT.topK });
  const long = Array.from({ length: DEFAULTS.readLines + LIMITS.readLines }, (_, i) => `line ${i + 1} lighthouse`).join(
    '\n',
  );
  await writeFile(join(fx.data, 'long.txt'), `${long}\n`);
  for (let i = 0; i < MOUNT.topK + 3; i++)
    await writeFile(join(fx.data, `light-${i}.md`), `# Lighthouse ${i}\n\nThe lighthouse keeper's log, entry ${i}.\n`);
  await fx.engine.indexFolder(fx.data, 'update');
  await fx.engine.idle();
  client = await connect(fx.mcpUrl);
  tools = (await client.listTools()).tools;
});

after(async () => {
  await client.close();
  await fx.close();
});

const listed = (name: string) => tools.find((t) => t.name === name) as Tool;
const strip = (s: unknown) => {
  const { $schema: _s, ...rest } = s as Record<string, unknown>;
  return rest;
};

test('tools/list shows the declared schemas unchanged, with the defaults the mount captured', () => {
  assert.deepEqual(strip(listed('search').inputSchema), JSON.parse(JSON.stringify(searchRequestSchema(MOUNT))));
  assert.deepEqual(strip(listed('read').inputSchema), JSON.parse(JSON.stringify(READ_REQUEST_SCHEMA)));
  assert.deepEqual(strip(listed('grep').inputSchema), JSON.parse(JSON.stringify(GREP_REQUEST_SCHEMA)));
  for (const [name, result] of [
    ['search', SEARCH_RESULT_SCHEMA],
    ['retrieve_context', SEARCH_RESULT_SCHEMA],
    ['semantic_search', SEARCH_RESULT_SCHEMA],
    ['read', READ_RESULT_SCHEMA],
    ['grep', GREP_RESULT_SCHEMA],
  ] as const) {
    assert.deepEqual(
      strip(listed(name).outputSchema),
      JSON.parse(JSON.stringify(outcomeSchema(result))),
      `${name} output schema`,
    );
  }
  const props = listed('search').inputSchema.properties as Record<string, { default?: unknown; maximum?: number }>;
  assert.equal(props.top_k.default, MOUNT.topK);
  assert.equal(props.mode.default, MOUNT.mode);
  assert.equal(props.top_k.maximum, LIMITS.topK.max);
  // The settings that feed the mount's defaults have the request's own range and modes.
  assert.deepEqual(settingSpec('mcp.default_top_k')?.schema, {
    type: 'integer',
    minimum: LIMITS.topK.min,
    maximum: LIMITS.topK.max,
  });
  assert.deepEqual(
    (settingSpec('mcp.default_mode')?.schema as { enum: string[] }).enum,
    SEARCH_REQUEST_SCHEMA.properties.mode.enum,
  );
});

test('the captured defaults apply once, the same through MCP and the admin API', async () => {
  const mcp = (await client.callTool({ name: 'search', arguments: { query: 'lighthouse' } })) as CallToolResult;
  const r = (mcp.structuredContent as { result: { mode: string; hits: unknown[]; hits_omitted: number } }).result;
  assert.equal(r.mode, MOUNT.mode);
  assert.equal(r.hits.length + r.hits_omitted, MOUNT.topK, "the mount's top_k");
  const api = (await (await fx.admin('POST', '/api/search', { query: 'lighthouse' })).json()) as {
    mode: string;
    hits: unknown[];
  };
  assert.equal(api.mode, MOUNT.mode);
  assert.equal(api.hits.length, MOUNT.topK);
  const read = (await client.callTool({
    name: 'read',
    arguments: { path: join(fx.data, 'long.txt') },
  })) as CallToolResult;
  const rr = (read.structuredContent as { result: { start_line: number; end_line: number } }).result;
  assert.equal(rr.start_line, DEFAULTS.startLine);
  assert.ok(rr.end_line <= DEFAULTS.readLines, `a default read stops by line ${DEFAULTS.readLines}: ${rr.end_line}`);
  const engineRead = await fx.engine.read({
    path: join(fx.data, 'long.txt'),
    start_line: 1,
    end_line: LIMITS.readLines + 100,
    max_chars: LIMITS.maxChars.max,
  });
  assert.equal(engineRead.end_line, LIMITS.readLines, 'one read returns at most LIMITS.readLines lines');
});

/** A valid sample of a schema (the first enum value, a one-character string, the minimum…). */
function sample(s: Schema): unknown {
  if (s.enum) return s.enum[0];
  if (s.type === 'string')
    return s.format === 'date-time' ? '2020-01-01T00:00:00Z' : 'a'.repeat(Math.max(1, s.minLength ?? 1));
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return true;
  if (s.type === 'array') return [sample(s.items ?? {})];
  return {};
}

/** Requests one step inside and one step outside every limit the schema declares. */
function boundaryCases(schema: Schema, base: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [key, p] of Object.entries(schema.properties ?? {})) {
    const at = (v: unknown) => out.push({ ...base, [key]: v });
    if (p.minimum !== undefined) [p.minimum - 1, p.minimum].forEach(at);
    if (p.maximum !== undefined) [p.maximum, p.maximum + 1].forEach(at);
    if (p.type === 'integer') at((p.minimum ?? 1) + 0.5);
    if (p.maxLength !== undefined) [p.maxLength, p.maxLength + 1].forEach((n) => at('q'.repeat(n)));
    if (p.minLength !== undefined) at('');
    if (p.enum) [p.enum[0], `${p.enum[0]}-not`].forEach(at);
    if (p.type === 'array') {
      const item = sample(p.items ?? {});
      if (p.maxItems !== undefined)
        [p.maxItems, p.maxItems + 1].forEach((n) => at(Array.from({ length: n }, () => item)));
      if (p.minItems !== undefined) at([]);
      if (p.items?.maxLength !== undefined) at(['q'.repeat(p.items.maxLength + 1)]);
    }
  }
  out.push({ ...base, not_an_argument: 1 });
  return out;
}

const isInvalid = (res: CallToolResult) =>
  (res.structuredContent as { error?: { code: string } }).error?.code === 'invalid_argument';

test('every surface accepts and refuses exactly what the listed schema does, at every declared limit', async () => {
  const surfaces = {
    search: { base: { query: 'lighthouse', folders: [fx.data] }, parse: (r: unknown) => parseSearchRequest(r, MOUNT) },
    read: { base: { path: join(fx.data, 'long.txt'), start_line: 1, end_line: 5 }, parse: parseReadRequest },
    grep: { base: { pattern: 'lighthouse', max_matches: 5 }, parse: parseGrepRequest },
  } as const;
  let checked = 0;
  for (const [name, { base, parse }] of Object.entries(surfaces)) {
    const validate = ajv.compile(listed(name).inputSchema);
    for (const req of boundaryCases(listed(name).inputSchema as Schema, base)) {
      const accepted = validate(req) === true;
      // Beyond the schema, folders must be indexed ones and page applies to PDFs: refusals of their own.
      if (accepted && Array.isArray(req.folders) && (req.folders as string[]).some((f) => f !== fx.data)) continue;
      if (accepted && 'page' in req) continue;
      const what = `${name} ${JSON.stringify(req).slice(0, 120)}`;
      const parsed = parse(req);
      assert.equal(parsed.ok, accepted, `contract parse agrees with the listed schema: ${what}`);
      if (!parsed.ok) assert.ok(parsed.issue.key.length > 0 && parsed.issue.message.length > 0);
      const res = (await client.callTool({ name, arguments: req })) as CallToolResult;
      assert.equal(isInvalid(res), !accepted, `MCP ${what}: ${JSON.stringify(res.structuredContent).slice(0, 200)}`);
      if (!accepted) {
        const err = (res.structuredContent as { error: { details?: { key?: string } } }).error;
        assert.equal(
          err.details?.key,
          parsed.ok ? undefined : parsed.issue.key,
          `MCP names the argument under details.key: ${what}`,
        );
      }
      const engine =
        name === 'search'
          ? fx.engine.search(req as never)
          : name === 'read'
            ? fx.engine.read(req as never)
            : fx.engine.grep(req as never);
      const engineInvalid = await engine.then(
        () => false,
        (e: { code?: string }) => e.code === 'invalid_argument',
      );
      assert.equal(engineInvalid, !accepted, `engine ${what}`);
      if (name === 'search') {
        const api = await fx.admin('POST', '/api/search', req);
        assert.equal(api.status === 400, !accepted, `admin API ${what}: ${api.status}`);
        await api.body?.cancel();
      }
      checked++;
    }
  }
  assert.ok(checked >= 60, `enough boundary cases were generated (${checked})`);
});

test('control: a schema whose limit differs by one disagrees with the contract at that limit', () => {
  const off = {
    ...SEARCH_REQUEST_SCHEMA,
    properties: {
      ...SEARCH_REQUEST_SCHEMA.properties,
      top_k: { ...SEARCH_REQUEST_SCHEMA.properties.top_k, maximum: LIMITS.topK.max + 1 },
    },
  };
  const validate = ajv.compile(off);
  const disagreements = boundaryCases(off, { query: 'x' }).filter(
    (req) => (validate(req) === true) !== parseSearchRequest(req, MOUNT).ok,
  );
  assert.deepEqual(
    disagreements.map((r) => r.top_k),
    [LIMITS.topK.max + 1],
  );
});

test('the search description names only tools the mount serves', async () => {
  assert.match(listed('search').description ?? '', /`grep` tool/, 'the full toolset has grep, and search says so');
  fx.engine.settings.set({ 'mcp.toolset': 'agent' });
  await fx.server.restartMcp();
  const agent = await connect(fx.mcpUrl);
  try {
    const list = (await agent.listTools()).tools;
    assert.deepEqual(list.map((t) => t.name).sort(), ['read', 'search']);
    const description = list.find((t) => t.name === 'search')?.description ?? '';
    assert.doesNotMatch(description, /`grep`|grep tool/, description);
    assert.match(description, /your own grep/);
    for (const t of list) {
      for (const other of [
        'index_status',
        'index_update',
        'index_drop',
        'server_status',
        'retrieve_context',
        'semantic_search',
        'answer',
      ]) {
        assert.ok(!(t.description ?? '').includes(other), `${t.name} does not mention ${other}`);
      }
    }
  } finally {
    await agent.close();
  }
});

test('what the engine answers (admin API, in-process) is what its declared response schemas say', async () => {
  const judge = (schema: Schema, value: unknown, what: string) => {
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema)) as object);
    assert.ok(validate(value), `${what}: ${ajv.errorsText(validate.errors)}`);
  };
  for (const body of [
    { query: 'lighthouse' },
    { query: 'lighthouse keeper', per_file: true, mode: 'tribrid' },
    { query: 'lighthouse', mode: 'vector', top_k: 3 },
  ]) {
    const res = await fx.admin('POST', '/api/search', body);
    assert.equal(res.status, 200);
    const json = (await res.json()) as { hits: unknown[] };
    assert.ok(json.hits.length > 0);
    judge(SEARCH_RESPONSE_SCHEMA, json, `POST /api/search ${JSON.stringify(body)}`);
  }
  judge(
    READ_RESPONSE_SCHEMA,
    await fx.engine.read({ path: join(fx.data, 'long.txt'), start_line: 1, end_line: 5, max_chars: DEFAULTS.maxChars }),
    'engine.read',
  );
  judge(
    GREP_RESPONSE_SCHEMA,
    await fx.engine.grep({
      pattern: 'lighthouse',
      regex: false,
      case_sensitive: false,
      max_matches: 5,
      max_chars: DEFAULTS.maxChars,
    }),
    'engine.grep',
  );
  // Control: a field the declaration does not name is caught.
  const validate = ajv.compile(JSON.parse(JSON.stringify(SEARCH_RESPONSE_SCHEMA)) as object);
  const one = (await (await fx.admin('POST', '/api/search', { query: 'lighthouse' })).json()) as {
    hits: Record<string, unknown>[];
  };
  one.hits[0].surprise = 1;
  assert.equal(validate(one), false);
});
