/**
 * `index_update` as a Tasks-extension task (2026-07-28) over real HTTP against the real engine:
 * a client declaring `io.modelcontextprotocol/tasks` gets a task handle and polls `tasks/get`
 * through the job's progress to the tool result; a client that does not (2026 without the
 * extension, or any 2025-era client) gets the job id as before. Handles are bound to the
 * credentials that created them. The SDK client has no Tasks API yet, so these are raw requests
 * shaped as the extension's spec says.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, startFixture, MCP_HEADERS, type Fixture } from './fixtures.js';

let fx: Fixture;
before(async () => {
  fx = await startFixture({ 'mcp.toolset': 'full' });
});
after(async () => {
  await fx.close();
});

const TASKS = 'io.modelcontextprotocol/tasks';
const meta = (extensions: Record<string, unknown> = { [TASKS]: {} }) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { extensions },
});

interface Rpc {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

async function rpc(
  method: string,
  params: Record<string, unknown>,
  opts: { name?: string; extensions?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<Rpc> {
  const headers: Record<string, string> = {
    ...MCP_HEADERS,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(opts.headers ?? {}),
  };
  if (opts.name) headers['mcp-name'] = opts.name;
  const res = await fetch(fx.mcpUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta(opts.extensions) } }),
  });
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: Rpc['error'] };
  return { status: res.status, ...body };
}

const callUpdate = (opts: Parameters<typeof rpc>[2] = {}) =>
  rpc(
    'tools/call',
    { name: 'index_update', arguments: { path: fx.data, kind: 'rebuild' } },
    { name: 'index_update', ...opts },
  );
const getTask = (taskId: string, opts: Parameters<typeof rpc>[2] = {}) =>
  rpc('tasks/get', { taskId }, { name: taskId, ...opts });

test('discover advertises the Tasks extension; a declaring client gets a task handle and polls it to the result', async () => {
  const discover = await rpc('server/discover', {});
  assert.deepEqual((discover.result!.capabilities as { extensions?: unknown }).extensions, { [TASKS]: {} });

  const created = await callUpdate();
  assert.equal(created.status, 200, JSON.stringify(created));
  const task = created.result!;
  assert.equal(task.resultType, 'task');
  assert.equal(typeof task.taskId, 'string');
  assert.ok((task.taskId as string).length >= 32, 'an unguessable handle');
  assert.ok(['working', 'completed'].includes(task.status as string));
  assert.ok((task.ttlMs as number) > 0 && (task.pollIntervalMs as number) > 0);
  assert.ok(!Number.isNaN(Date.parse(task.createdAt as string)));

  let last: Record<string, unknown> = {};
  for (let i = 0; i < 600; i++) {
    const polled = await getTask(task.taskId as string);
    assert.equal(polled.status, 200, JSON.stringify(polled));
    last = polled.result!;
    assert.equal(last.resultType, 'complete');
    assert.equal(last.taskId, task.taskId);
    if (last.status === 'working')
      assert.match(String(last.statusMessage), /files|Queued/, 'progress in the status message');
    if (last.status !== 'working') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(last.status, 'completed', JSON.stringify(last));
  const result = last.result as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent: { result: { job_id: string; state: string; folder: string } };
  };
  assert.equal(result.isError, undefined);
  assert.equal(result.structuredContent.result.state, 'done');
  assert.equal(result.structuredContent.result.folder, fx.data);
  assert.match(result.content[0].text, /Finished rebuild/);
  assert.equal(fx.engine.job(result.structuredContent.result.job_id)?.state, 'done', 'the task is the engine job');
});

test('without the extension, or from a 2025-era client, index_update answers with the job id as before', async () => {
  const plain = await callUpdate({ extensions: {} });
  assert.equal(plain.status, 200);
  assert.equal(plain.result!.resultType, 'complete');
  const job = (plain.result!.structuredContent as { result: { job_id: string } }).result;
  assert.ok(job.job_id, 'a job id to poll with index_status');
  const legacy = await connect(fx.mcpUrl);
  const res = await legacy.callTool({ name: 'index_update', arguments: { path: fx.data } });
  assert.ok((res.structuredContent as { result: { job_id: string } }).result.job_id);
  assert.equal((res as { resultType?: string }).resultType, undefined);
  await legacy.close();
  await fx.engine.idle();
});

test('tasks/get: unknown handle -32602, other credentials -32602, no extension -32021; typed refusals stay results', async () => {
  const created = await callUpdate();
  const taskId = created.result!.taskId as string;
  assert.equal((await getTask(taskId)).status, 200, 'control: the creator can poll it');
  const unknown = await getTask('not-a-task-id-at-all');
  assert.equal(unknown.error?.code, -32602);
  const key = (await fx.apiKeys.get()) ?? (await fx.apiKeys.rotate());
  const other = await getTask(taskId, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(other.error?.code, -32602, 'a handle is bound to the credentials that created it');
  const undeclared = await getTask(taskId, { extensions: {} });
  assert.equal(undeclared.error?.code, -32021);
  assert.deepEqual(undeclared.error?.data?.requiredCapabilities, { extensions: { [TASKS]: {} } });
  // An index_update the tool itself refuses is its typed error, not a task.
  const refused = await rpc(
    'tools/call',
    { name: 'index_update', arguments: { path: fx.evil } },
    { name: 'index_update' },
  );
  assert.equal(refused.result!.isError, true);
  assert.equal((refused.result!.structuredContent as { error: { code: string } }).error.code, 'path_outside_folders');
  await fx.engine.idle();
});

test('tasks/cancel acknowledges and cancels a job still running; the task then reads cancelled', async () => {
  fx.engine.setPaused(true);
  try {
    const created = await callUpdate();
    const taskId = created.result!.taskId as string;
    assert.equal(created.result!.status, 'working');
    const cancel = await rpc('tasks/cancel', { taskId }, { name: taskId });
    assert.equal(cancel.status, 200, JSON.stringify(cancel));
    assert.equal(cancel.result!.resultType, 'complete');
    fx.engine.setPaused(false);
    await fx.engine.idle();
    const after = await getTask(taskId);
    assert.equal(after.result!.status, 'cancelled', JSON.stringify(after.result));
  } finally {
    fx.engine.setPaused(false);
  }
});
