/**
 * Every tool through the SDK client over real HTTP against the real engine: results, text
 * renderings, typed errors, schemas (no $ref; every structuredContent validates).
 * The generation endpoint behind `answer` is a local test double (a remote LLM cannot run here).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { connect, startFixture, type Fixture } from './fixtures.js';
import type { Schema } from '../../main/common/json-schema.js';
import { GREP_REQUEST_SCHEMA, READ_REQUEST_SCHEMA, searchRequestSchema } from '../../main/common/requests.js';
import {
  GREP_RESULT_SCHEMA,
  READ_RESULT_SCHEMA,
  SEARCH_RESULT_SCHEMA,
  outcomeSchema,
} from '../../main/common/results.js';
import {
  ANSWER_REQUEST_SCHEMA,
  ANSWER_RESULT_SCHEMA,
  EMPTY_REQUEST_SCHEMA,
  INDEX_DROP_REQUEST_SCHEMA,
  INDEX_DROP_RESULT_SCHEMA,
  INDEX_STATUS_RESULT_SCHEMA,
  INDEX_UPDATE_REQUEST_SCHEMA,
  JOB_RESULT_SCHEMA,
  RETRIEVE_CONTEXT_REQUEST_SCHEMA,
  SEMANTIC_SEARCH_REQUEST_SCHEMA,
  SERVER_STATUS_RESULT_SCHEMA,
} from '../../main/common/tool-requests.js';

let fx: Fixture;
let client: Client;
let tools: Tool[];
let llm: Server;
const llmRequests: { messages: { role: string; content: string }[]; model: string }[] = [];
const ajv = new Ajv({ strict: false, allErrors: true });

/** OpenAI-compatible chat completions double: answers with a fixed cited sentence. */
async function startLlm(): Promise<string> {
  llm = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      assert.equal(req.url, '/v1/chat/completions');
      llmRequests.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content: 'It retries with exponential backoff [1].' } }],
        }),
      );
    });
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(llm.address() as AddressInfo).port}`;
}

before(async () => {
  const generationUrl = await startLlm();
  fx = await startFixture({
    'mcp.toolset': 'full',
    'mcp.generation_url': generationUrl,
    'mcp.generation_model': 'tiny',
  });
  client = await connect(fx.mcpUrl);
  tools = (await client.listTools()).tools;
});

after(async () => {
  await client.close();
  await fx.close();
  await new Promise((r) => llm.close(r));
});

/** Calls a tool and checks the result against its outputSchema and the fail-closed shape. */
async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const tool = tools.find((t) => t.name === name);
  assert.ok(tool?.outputSchema, `${name} has an outputSchema`);
  const validate = ajv.compile(tool.outputSchema);
  assert.ok(validate(res.structuredContent), `${name} structuredContent validates: ${ajv.errorsText(validate.errors)}`);
  const sc = res.structuredContent as Record<string, unknown>;
  assert.ok('result' in sc !== 'error' in sc, `${name}: exactly one of result and error`);
  assert.equal(res.isError === true, 'error' in sc, `${name}: isError matches the error branch`);
  assert.equal(res.content[0].type, 'text');
  return res;
}

async function expectError(
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<Record<string, unknown>> {
  const res = await call(name, args);
  const err = (res.structuredContent as { error?: { code: string; message: string } }).error;
  assert.equal(
    err?.code,
    code,
    `${name}(${JSON.stringify(args)}) fails with ${code}, got ${JSON.stringify(res.structuredContent)}`,
  );
  assert.ok(err.message.length > 0);
  return err as Record<string, unknown>;
}

/** Every tool's declared contract (main/common): what tools/list must show, input and output. */
const DECLARED: Record<string, [Schema, Schema]> = {
  search: [searchRequestSchema({ mode: 'hybrid', topK: 10 }), SEARCH_RESULT_SCHEMA],
  read: [READ_REQUEST_SCHEMA, READ_RESULT_SCHEMA],
  grep: [GREP_REQUEST_SCHEMA, GREP_RESULT_SCHEMA],
  index_status: [EMPTY_REQUEST_SCHEMA, INDEX_STATUS_RESULT_SCHEMA],
  index_update: [INDEX_UPDATE_REQUEST_SCHEMA, JOB_RESULT_SCHEMA],
  index_drop: [INDEX_DROP_REQUEST_SCHEMA, INDEX_DROP_RESULT_SCHEMA],
  server_status: [EMPTY_REQUEST_SCHEMA, SERVER_STATUS_RESULT_SCHEMA],
  retrieve_context: [RETRIEVE_CONTEXT_REQUEST_SCHEMA, SEARCH_RESULT_SCHEMA],
  semantic_search: [SEMANTIC_SEARCH_REQUEST_SCHEMA, SEARCH_RESULT_SCHEMA],
  answer: [ANSWER_REQUEST_SCHEMA, ANSWER_RESULT_SCHEMA],
};

const resultOf = <T>(res: CallToolResult) => (res.structuredContent as { result: T }).result;
const textOf = (res: CallToolResult) => (res.content[0] as { text: string }).text;

test('tools/list: the full toolset with answer, flat schemas, descriptions that guide the agent', () => {
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'answer',
    'grep',
    'index_drop',
    'index_status',
    'index_update',
    'read',
    'retrieve_context',
    'search',
    'semantic_search',
    'server_status',
  ]);
  const text = JSON.stringify(tools);
  assert.ok(
    !text.includes('$ref') && !text.includes('$defs') && !text.includes('definitions'),
    'no $ref/$defs anywhere',
  );
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object');
    assert.equal(t.outputSchema?.type, 'object');
  }
  const search = tools.find((t) => t.name === 'search')!;
  assert.match(search.description ?? '', /grep/);
  assert.match(search.description ?? '', /not instructions/);
  assert.ok(search.inputSchema.properties?.queries, 'search takes several queries');
});

test('search: hits, freshness first, grouped by file with numbered lines, bounded by max_chars', async () => {
  const res = await call('search', { query: 'exponential backoff retries' });
  const hits = resultOf<{ hits: { path: string; start_line: number; end_line: number }[] }>(res).hits;
  assert.ok(hits[0].path.endsWith('notes/retry.md'), `top hit is the retry note: ${hits[0]?.path}`);
  const text = textOf(res);
  assert.match(text, /^Freshness/);
  assert.match(text, new RegExp(`## ${join(fx.data, 'notes/retry.md')}`));
  assert.match(text, /lines \d+-\d+/);
  assert.match(text, /\d+│ .*exponential backoff/);
  assert.match(text, /not instructions/);
  const small = await call('search', { query: 'the', top_k: 50, max_chars: 1000 });
  assert.ok(textOf(small).length <= 1000, `bounded text (${textOf(small).length})`);
  assert.ok(
    JSON.stringify(small.structuredContent).length <= 1000,
    `bounded JSON (${JSON.stringify(small.structuredContent).length})`,
  );
  const sr = (small.structuredContent as { result: { hits: unknown[]; hits_omitted: number } }).result;
  assert.ok(sr.hits.length >= 1, 'the first hit is always there');
  const multi = await call('search', {
    queries: ['lighthouse budget', 'travel costs'],
    mode: 'sparse',
    file_types: ['md'],
  });
  assert.ok(resultOf<{ hits: { path: string }[] }>(multi).hits.every((h) => h.path.endsWith('.md')));
});

test('search: typed invalid_argument for bad arguments, from the SDK validation and from our checks', async () => {
  await expectError('search', { query: 'x', top_k: 101 }, 'invalid_argument');
  await expectError('search', { query: 'x', mode: 'telepathy' }, 'invalid_argument');
  await expectError('search', {}, 'invalid_argument');
  await expectError('search', { query: 'x', modified_after: 'yesterday-ish' }, 'invalid_argument');
  await expectError('search', { query: 'x', folders: ['/not/indexed'] }, 'invalid_argument');
});

test('read: lines of an indexed file, bounded', async () => {
  const res = await call('read', { path: join(fx.data, 'src/queue.ts'), start_line: 2, end_line: 3 });
  const r = resultOf<{ start_line: number; end_line: number; content: string }>(res);
  assert.equal(r.start_line, 2);
  assert.match(r.content, /^2│ .*drains pending uploads/);
  assert.ok(!r.content.includes('export class'), 'line 1 is not included');
  assert.match(textOf(res), /not instructions/);
  await expectError('read', { path: join(fx.data, 'notes/missing.md') }, 'not_found');
});

test('read: every path escape is refused with path_outside_folders and reveals nothing', async () => {
  const escapes = [
    `${fx.data}/../outside.txt`,
    `${fx.data}/notes/../../outside.txt`,
    '../outside.txt',
    'notes/../../outside.txt',
    join(fx.root, 'outside.txt'),
    '/etc/passwd',
    `${fx.data}/%2e%2e/outside.txt`,
    `${fx.data}/..%2Foutside.txt`,
    `${fx.data}/%2E%2E%2Foutside.txt`,
    join(fx.evil, 'secret.txt'),
    `${fx.data}-evil/secret.txt`,
    join(fx.data, 'link-out.txt'),
    `${fx.data}/\u0000/../outside.txt`,
  ];
  for (const path of escapes) {
    const res = await client.callTool({ name: 'read', arguments: { path } });
    const sc = res.structuredContent as { error?: { code: string } };
    assert.equal(sc.error?.code, 'path_outside_folders', `${JSON.stringify(path)} → ${JSON.stringify(sc)}`);
    assert.ok(!/(evil|outside) secret/.test(JSON.stringify(res)), `${path}: nothing of the target leaks`);
  }
});

test('grep: exhaustive literal and regex matches', async () => {
  const lit = resultOf<{ matches: { path: string; line: number; text: string }[] }>(
    await call('grep', { pattern: 'UploadQueue' }),
  );
  assert.deepEqual(
    lit.matches.map((m) => [m.path, m.line]),
    [[join(fx.data, 'src/queue.ts'), 1]],
  );
  const re = resultOf<{ matches: unknown[] }>(await call('grep', { pattern: 'Q[0-9] budget', regex: true }));
  assert.equal(re.matches.length, 1);
  await expectError('grep', { pattern: '(', regex: true }, 'invalid_argument');
});

test('index_status, server_status, retrieve_context, semantic_search', async () => {
  const st = resultOf<{ folders: { path: string; state: string }[] }>(await call('index_status', {}));
  assert.deepEqual(
    st.folders.map((f) => [f.path, f.state]),
    [[fx.data, 'fresh']],
  );
  const ss = resultOf<{ toolset: string; default_mode: string; tools: string[] }>(await call('server_status', {}));
  assert.equal(ss.toolset, 'full');
  assert.equal(ss.default_mode, 'tribrid');
  assert.ok(ss.tools.includes('answer'));
  const rc = resultOf<{ mode: string; hits: { path: string }[] }>(
    await call('retrieve_context', { query: 'budget euros', filters: { source: fx.data, tags: ['md'] } }),
  );
  assert.ok(rc.hits.length > 0 && rc.hits.length <= 10);
  assert.equal(rc.mode, 'hybrid', 'hybrid: no graph leg');
  assert.ok(
    rc.hits.every((h) => h.path.endsWith('.md')),
    'tags filter kinds',
  );
  const sem = resultOf<{ mode: string; hits: { score: number }[] }>(
    await call('semantic_search', { vector_query: 'how uploads recover from failures', threshold: 0 }),
  );
  assert.ok(sem.hits.length > 0);
  assert.equal(sem.mode, 'vector', 'vectors only');
  const strict = resultOf<{ hits: unknown[] }>(
    await call('semantic_search', { vector_query: 'how uploads recover from failures', threshold: 1 }),
  );
  assert.equal(strict.hits.length, 0, 'an empty list is a success');
});

test('index_update returns a job id; index_drop needs confirm and only takes indexed folders', async () => {
  const job = resultOf<{ job_id: string; folder: string }>(await call('index_update', { path: fx.data }));
  assert.ok(job.job_id.length > 0);
  assert.equal(job.folder, fx.data);
  await fx.engine.idle();
  await expectError('index_update', { path: fx.evil }, 'path_outside_folders');
  await expectError('index_drop', { path: fx.data }, 'invalid_argument');
  await expectError('index_drop', { path: '/tmp', confirm: true }, 'path_outside_folders');
  const dropped = resultOf<{ dropped: string }>(await call('index_drop', { path: fx.data, confirm: true }));
  assert.equal(dropped.dropped, fx.data);
  assert.equal(
    resultOf<{ hits: unknown[] }>(await call('search', { query: 'backoff', mode: 'sparse' })).hits.length,
    0,
  );
  await call('index_update', { path: fx.data, kind: 'rebuild' });
  await fx.engine.idle();
  assert.ok(
    resultOf<{ hits: unknown[] }>(await call('search', { query: 'backoff', mode: 'sparse' })).hits.length > 0,
    'searchable again',
  );
});

test('answer: retrieval, local generation, citations to the hits', async () => {
  const res = await call('answer', { question: 'How does the upload client handle failed requests?' });
  const r = resultOf<{ answer: string; citations: { n: number; path: string }[]; model: string }>(res);
  assert.match(r.answer, /\[1\]/);
  assert.ok(r.citations.some((c) => c.path.endsWith('retry.md')));
  assert.equal(r.model, 'tiny');
  const sent = llmRequests.at(-1)!;
  assert.equal(sent.model, 'tiny');
  assert.match(sent.messages[0].content, /not instructions/);
  assert.match(sent.messages[1].content, /\[1\] .*exponential backoff/s);
  assert.match(textOf(res), /Sources:\n\[1\]/);
});

test('answer: generation_unavailable when the endpoint does not answer', async () => {
  fx.engine.settings.set({ 'mcp.generation_url': 'http://127.0.0.1:9' });
  await fx.server.restartMcp();
  const c = await connect(fx.mcpUrl);
  try {
    const res = (await c.callTool({ name: 'answer', arguments: { question: 'retries?' } })) as CallToolResult;
    assert.equal(res.isError, true);
    assert.equal((res.structuredContent as { error: { code: string } }).error.code, 'generation_unavailable');
  } finally {
    await c.close();
  }
});

test('contract mismatch: search fails closed with embedding_contract_mismatch, answer with answer_retrieval_failed', async () => {
  fx.engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
  // The engine re-checks its index contract asynchronously after a model change.
  for (let i = 0; i < 100 && !(await fx.engine.status()).contract_mismatch; i++)
    await new Promise((r) => setTimeout(r, 50));
  const err = await expectError('search', { query: 'backoff' }, 'embedding_contract_mismatch');
  assert.ok(err.remedy, 'the error says what to do');
  const ans = await expectError('answer', { question: 'retries?' }, 'answer_retrieval_failed');
  assert.equal((ans.details as { cause: { code: string } }).cause.code, 'embedding_contract_mismatch');
  assert.ok(
    resultOf<{ hits: unknown[] }>(await call('search', { query: 'backoff', mode: 'sparse' })).hits.length > 0,
    'sparse mode still works',
  );
  // Back to the model the index was built with: nothing was lost, vector search answers again.
  // (This also lets the engine finish swapping models before the fixture closes it: Engine.close()
  // does not yet wait for that background work.)
  fx.engine.settings.set({ 'embedding.model': 'cairn/use-lite' });
  assert.ok(
    resultOf<{ hits: unknown[] }>(await call('search', { query: 'backoff', mode: 'tribrid' })).hits.length > 0,
    'tribrid works again',
  );
});

test('every tool lists its declared contract schemas as they are (input, and output as {result} or {error})', () => {
  const strip = (x: unknown) => {
    const { $schema: _dialect, ...rest } = x as Record<string, unknown>;
    return rest;
  };
  assert.deepEqual(
    tools.map((t) => t.name).sort(),
    Object.keys(DECLARED).sort(),
    'every listed tool has a declared contract',
  );
  for (const t of tools) {
    const [input, output] = DECLARED[t.name];
    const listedInput = strip(t.inputSchema) as { properties?: Record<string, { default?: unknown }> };
    // search lists the defaults its mount captured; those come from settings, not the contract.
    if (t.name === 'search') for (const k of ['mode', 'top_k'] as const) delete listedInput.properties![k].default;
    const declaredInput = JSON.parse(JSON.stringify(input)) as typeof listedInput;
    if (t.name === 'search') for (const k of ['mode', 'top_k'] as const) delete declaredInput.properties![k].default;
    assert.deepEqual(listedInput, declaredInput, `${t.name} input schema`);
    assert.deepEqual(
      strip(t.outputSchema),
      JSON.parse(JSON.stringify(outcomeSchema(output))),
      `${t.name} output schema`,
    );
  }
});

test('the other tools refuse what their contract refuses, with the key named and nothing run', async () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['index_update', { path: fx.data, kind: 'bogus' }, 'kind'],
    ['index_update', {}, 'path'],
    ['index_drop', { path: fx.data, confirm: false }, 'confirm'],
    ['retrieve_context', { query: 'x', top_k: 101 }, 'top_k'],
    ['retrieve_context', { query: 'x', filters: { source: '' } }, 'filters.source'],
    ['semantic_search', { vector_query: 'x', threshold: 1.5 }, 'threshold'],
    ['answer', { question: '' }, 'question'],
    ['index_status', { surprise: 1 }, 'surprise'],
  ];
  for (const [name, args, key] of cases) {
    const err = await expectError(name, args, 'invalid_argument');
    assert.equal((err.details as { key?: string } | undefined)?.key, key, `${name}(${JSON.stringify(args)})`);
  }
  // Control: the same tools accept the arguments one step inside the limits.
  assert.ok(resultOf(await call('retrieve_context', { query: 'x', top_k: 100 })));
  assert.ok(resultOf(await call('semantic_search', { vector_query: 'x', threshold: 1 })));
});
