/**
 * The stdio door's background engine starts with the engine's malloc settings (kernel/malloc-env.ts)
 * and Node flags (kernel/young-generation.ts): read from the environment and command line of the
 * real engine process it spawned, beside the test process's own, which has neither (so the values
 * come from the spawn, not from inheritance).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SettingsStore } from '../../main/engine/config/settings-store.js';
import { dataPaths } from '../../main/engine/config/paths.js';
import { readLock } from '../../main/engine/lock.js';
import { findOrStartEngine } from '../../main/engine/cli/engine-door.js';

const linux = process.platform === 'linux';
let root: string;
let home: string;

function environ(pid: number | 'self'): Map<string, string> {
  const raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
  return new Map(
    raw
      .split('\0')
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

function cmdline(pid: number | 'self'): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-malloc-'));
  home = join(root, 'home');
  new SettingsStore(home).set({ 'mcp.port': 0 });
});

after(async () => {
  const owner = await readLock(dataPaths(home).lock);
  if (owner) process.kill(owner.pid, 'SIGKILL');
  for (let i = 0; i < 100 && (await readLock(dataPaths(home).lock)); i++) await sleep(100);
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

test(
  'the background engine runs with fixed malloc thresholds and a capped young generation; the process that started it has neither',
  { skip: !linux },
  async () => {
    assert.equal(process.env.MALLOC_MMAP_THRESHOLD_, undefined, 'precondition: the test runs without it');
    assert.equal(environ('self').get('MALLOC_MMAP_THRESHOLD_'), undefined, 'control: not in this process');
    assert.equal(environ('self').get('MALLOC_TRIM_THRESHOLD_'), undefined, 'control: not in this process');
    assert.equal(environ('self').get('MALLOC_TOP_PAD_'), undefined, 'control: not in this process');
    assert.ok(!cmdline('self').includes('--max-semi-space-size=4'), 'control: not on this command line');
    const engine = await findOrStartEngine(home);
    const env = environ(engine.pid);
    assert.equal(env.get('CAIRN_HOME'), home, 'control: this is the environment the door gave its engine');
    assert.equal(env.get('MALLOC_MMAP_THRESHOLD_'), '131072');
    assert.equal(env.get('MALLOC_TRIM_THRESHOLD_'), '131072');
    assert.equal(env.get('MALLOC_TOP_PAD_'), '1048576');
    const line = cmdline(engine.pid);
    assert.ok(line.includes('serve'), `control: the engine's command line: ${line.join(' ')}`);
    assert.ok(line.includes('--max-semi-space-size=4'), `the young generation's cap: ${line.join(' ')}`);
  },
);
