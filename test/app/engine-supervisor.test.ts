// The engine supervisor with real child processes (Node's fork stands in for Electron's
// utilityProcess.fork, which cannot run here): address parsing, restarts with backoff after a
// crash, giving up after repeated quick crashes, and a clean stop that does not restart.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EngineSupervisor,
  parseEngineLine,
  type SpawnEngine,
  type SupervisorState,
} from '../../main/app/engine-supervisor.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-sup-'));
function script(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, body);
  return file;
}

const serving = script(
  'serving.mjs',
  `process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
console.log('Cairn engine starting');
console.log('Workbench: http://127.0.0.1:45678/#token=' + process.env.CAIRN_ADMIN_TOKEN);
console.log('MCP: http://127.0.0.1:45678/mcp');
setInterval(() => {}, 1000);`,
);
const crashing = script('crashing.mjs', `console.log('Workbench: http://127.0.0.1:45679/#token=x'); process.exit(3);`);

let spawns = 0;
const children: ChildProcess[] = [];
// execArgv: only the supervisor's flags, so the children do not inherit `--import tsx`, whose
// signal relay can swallow the SIGTERM a stop sends; the scripts are plain .mjs.
const spawn: SpawnEngine = (entry, args, env, execArgv) => {
  spawns += 1;
  const child = fork(entry, args, {
    env: { ...process.env, ...env },
    execArgv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.push(child);
  return child;
};
// Whatever a failed assertion leaves running must not keep the test process alive.
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function waitFor<T>(sup: EngineSupervisor, event: string, pred: (v: T) => boolean, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), ms);
    const on = (v: T) => {
      if (!pred(v)) return;
      clearTimeout(t);
      sup.off(event, on);
      resolve(v);
    };
    sup.on(event, on);
  });
}

test('parses the lines cairn serve prints', () => {
  assert.deepEqual(parseEngineLine('Workbench: http://127.0.0.1:1/#token=abc'), {
    workbench: 'http://127.0.0.1:1/#token=abc',
  });
  assert.deepEqual(parseEngineLine('  MCP: http://127.0.0.1:1/mcp'), { mcp: 'http://127.0.0.1:1/mcp' });
  assert.deepEqual(parseEngineLine('indexing /x'), {});
});

test('learns the address, passes the admin token, and stops cleanly without restarting', async () => {
  spawns = 0;
  const logged: string[] = [];
  const sup = new EngineSupervisor({
    spawn,
    entry: serving,
    args: ['serve'],
    env: {},
    adminToken: 'tok-123',
    initialBackoffMs: 10,
    log: (l) => logged.push(l),
  });
  const addr = waitFor<{ baseUrl: string; adminToken: string } | null>(sup, 'address', (a) => a !== null);
  sup.start();
  assert.deepEqual(await addr, { baseUrl: 'http://127.0.0.1:45678', adminToken: 'tok-123' });
  assert.equal(sup.current, 'running');
  // The MCP line may follow the workbench line; the address is usable before it arrives.
  for (let i = 0; i < 50 && !sup.mcpAddress(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(sup.mcpAddress(), 'http://127.0.0.1:45678/mcp');
  assert.ok(logged.some((l) => l.includes('#token=<redacted>')));
  assert.ok(!logged.some((l) => l.includes('tok-123')), 'the admin token is never logged');
  await sup.stop();
  assert.equal(sup.current, 'stopped');
  assert.equal(sup.address(), null);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(spawns, 1, 'a stopped engine is not restarted');
});

test('a crashing engine is restarted with growing delays, then given up on', async () => {
  spawns = 0;
  const delays: number[] = [];
  const sup = new EngineSupervisor({
    spawn,
    entry: crashing,
    args: [],
    env: {},
    adminToken: 't',
    initialBackoffMs: 10,
    maxQuickCrashes: 3,
  });
  sup.on('restart-scheduled', (d: number) => delays.push(d));
  const failed = waitFor<SupervisorState>(sup, 'state', (s) => s === 'failed', 10000);
  sup.start();
  await failed;
  assert.equal(spawns, 4, 'first run plus three restarts');
  assert.deepEqual(delays, [10, 20, 40]);
  await sup.stop();
});

function environOf(pid: number): Map<string, string> {
  return new Map(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

function cmdlineOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

async function engineProcess(env: Record<string, string>): Promise<{ env: Map<string, string>; cmdline: string[] }> {
  const sup = new EngineSupervisor({ spawn, entry: serving, args: ['serve'], env, adminToken: 't' });
  const addr = waitFor<{ baseUrl: string } | null>(sup, 'address', (a) => a !== null);
  sup.start();
  await addr;
  try {
    const pid = children[children.length - 1].pid!;
    return { env: environOf(pid), cmdline: cmdlineOf(pid) };
  } finally {
    await sup.stop();
  }
}

test(
  'the engine starts with fixed malloc thresholds and a capped young generation (read from the real child); a value the shell was given is kept',
  { skip: process.platform !== 'linux' },
  async () => {
    assert.equal(process.env.MALLOC_MMAP_THRESHOLD_, undefined, 'precondition: the test runs without it');
    // Control: the same spawn without the supervisor gives a child none.
    spawn(serving, [], {}, []);
    const direct = children[children.length - 1];
    try {
      assert.equal(environOf(direct.pid!).get('MALLOC_MMAP_THRESHOLD_'), undefined);
      assert.equal(environOf(direct.pid!).get('MALLOC_TOP_PAD_'), undefined);
      assert.ok(!cmdlineOf(direct.pid!).includes('--max-semi-space-size=4'), 'control: no flag without the supervisor');
    } finally {
      direct.kill('SIGKILL');
    }
    const { env, cmdline } = await engineProcess({ CAIRN_HOME: '/x' });
    assert.ok(cmdline.includes('--max-semi-space-size=4'), `the young generation's cap: ${cmdline.join(' ')}`);
    assert.equal(env.get('CAIRN_HOME'), '/x', 'control: the environment the supervisor passed');
    assert.equal(env.get('MALLOC_MMAP_THRESHOLD_'), '131072');
    assert.equal(env.get('MALLOC_TRIM_THRESHOLD_'), '131072');
    assert.equal(env.get('MALLOC_TOP_PAD_'), '1048576');
    const { env: chosen, cmdline: chosenLine } = await engineProcess({
      MALLOC_MMAP_THRESHOLD_: '65536',
      NODE_OPTIONS: '--max-semi-space-size=8',
    });
    assert.ok(!chosenLine.includes('--max-semi-space-size=4'), 'a cap NODE_OPTIONS chose is not overridden');
    assert.equal(chosen.get('MALLOC_MMAP_THRESHOLD_'), '65536');
    assert.equal(chosen.get('MALLOC_TRIM_THRESHOLD_'), '131072');
    assert.equal(chosen.get('MALLOC_TOP_PAD_'), '1048576');
  },
);
