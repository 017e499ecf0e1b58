// Issue 12, cause 4: no regex can stall the engine, also on a loaded machine. A real `cairn serve`
// (its own process, as the attack run used it) gets catastrophic-backtracking greps from an SDK
// client, several at once (more than there are grep workers), while busy processes load every core
// and a bystander keeps calling tools/list (each answer within 1 s: a liveness bound, not a
// benchmark; the old code blocked the event loop until killed) and a sparse search (answered while
// the greps still run). Every
// attacking call must end in a typed `timeout`, and the engine must serve normally afterwards.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openEngine } from '../../main/engine/engine.js';
import { connect, FILES } from '../mcp/fixtures.js';
import { REPO } from '../helpers/cli.js';
import { start, type Proc } from '../helpers/processes.js';
import { Hogs, rpc, whileCalling } from './bystander.js';

const TIMEOUT_MS = 3000;
let root: string;
let serve: Proc;
let mcpUrl: string;
let attacker: Client;

/** Prose whose lines defeat `^(\w+\s?)*$`: many words, then a character the pattern cannot end on. */
function prose(lines: number): string {
  const words = 'the river carried the last of the autumn leaves past the mill and under the old stone bridge';
  return Array.from({ length: lines }, (_, i) => `${words} ${words} line ${i}!`).join('\n') + '\n';
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-redos-'));
  const data = join(root, 'data');
  const home = join(root, 'home');
  const files = { ...FILES, 'notes/prose.md': prose(40), 'notes/more-prose.md': prose(40) };
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(dirname(join(data, rel)), { recursive: true });
    await writeFile(join(data, rel), text);
  }
  const engine = await openEngine({ home });
  engine.settings.set({ 'mcp.port': 0, 'mcp.toolset': 'full', 'search.grep_timeout_ms': TIMEOUT_MS });
  await engine.addFolder({ path: data });
  await engine.indexFolder(data, 'create');
  await engine.idle();
  await engine.close();
  serve = start(process.execPath, [join(REPO, 'bin', 'cairn.mjs'), 'serve'], { CAIRN_HOME: home });
  mcpUrl = (await serve.waitFor(/MCP: (http:\/\/\S+)/))[1];
  attacker = await connect(mcpUrl);
  // Warm: the first sparse search opens the tables; what is measured is an engine that serves.
  await rpc(mcpUrl, 'tools/call', { name: 'search', arguments: { query: 'exponential backoff', mode: 'sparse' } });
});

after(async () => {
  await attacker?.close().catch(() => undefined);
  await serve?.stop();
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

const errorOf = (res: CallToolResult) => (res.structuredContent as { error?: { code: string; message: string } }).error;
// Each call ends at its deadline once a worker runs it; a worker's start-up on a loaded machine is not counted, so the SDK's 60 s default is too short.
const grep = (pattern: string) =>
  attacker.callTool({ name: 'grep', arguments: { pattern, regex: true } }, undefined, {
    timeout: 170_000,
  }) as Promise<CallToolResult>;
const BYSTANDER: [string, Record<string, unknown>][] = [
  ['tools/list', {}],
  ['tools/call', { name: 'search', arguments: { query: 'lighthouse budget', mode: 'sparse', top_k: 3 } }],
];

test(
  'ReDoS under load: backtracking greps end in `timeout` while tools/list keeps answering within 1 s and searches answer',
  { timeout: 180_000 },
  async () => {
    const hogs = new Hogs(2 * availableParallelism());
    let runnable = 0;
    try {
      // One at a time, then more at once than there are grep workers (the pool has at most 4).
      const rounds: string[][] = [
        ['^(\\w+\\s?)*$'],
        ['(\\w|\\w?)+$', '^(([a-z])+.)+[A-Z]([a-z])+$'],
        Array(5).fill('^(\\w+\\s?)*$'),
      ];
      for (const patterns of rounds) {
        const { result, slowest, during } = await whileCalling(mcpUrl, BYSTANDER, () =>
          Promise.all(patterns.map(grep)),
        );
        result.forEach((res, i) => {
          const err = errorOf(res);
          // The pattern never finishes over these lines (2^words ways to split each one): the
          // control that the attack is real. Others may happen to finish; nothing may wait on them.
          if (patterns[i].startsWith('^(\\w+'))
            assert.ok(err, 'the backtracking grep finished: the attack proves nothing');
          if (err) {
            assert.equal(err.code, 'timeout', JSON.stringify(err));
            assert.match(err.message, new RegExp(`grep stopped after ${TIMEOUT_MS} ms`));
          }
        });
        if (process.env.CAIRN_TEST_TRACE)
          console.error('bystander', patterns.length, JSON.stringify({ slowest, during }));
        // The bound for a concurrent tools/list; a search must answer while the greps still run
        // (how fast depends on what else loads the machine: LanceDB's threads share the hogs' cores).
        assert.ok(
          slowest['tools/list'] < 1000,
          `tools/list took ${slowest['tools/list'].toFixed(0)} ms during greps ${patterns.join(' ')}`,
        );
        assert.ok(
          (during['tools/list'] ?? 0) >= 1 && (during['tools/call'] ?? 0) >= 1,
          `the bystander was not answered while the greps ran: ${JSON.stringify(during)}`,
        );
      }
    } finally {
      runnable = hogs.medianRunnable();
      await hogs.stop();
    }
    // Control: the machine really was loaded (at least twice as many runnable threads as cores).
    assert.ok(
      runnable >= 2 * availableParallelism(),
      `median ${runnable} runnable threads on ${availableParallelism()} cores: no real load`,
    );
    // The stuck workers were replaced: an ordinary grep answers, with its matches.
    const ok = await attacker.callTool({ name: 'grep', arguments: { pattern: 'exponential backoff' } });
    assert.equal(errorOf(ok as CallToolResult), undefined, JSON.stringify(ok.structuredContent));
    assert.match(JSON.stringify(ok.structuredContent), /retry\.md/);
  },
);
