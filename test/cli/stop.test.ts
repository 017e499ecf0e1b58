/**
 * `cairn stop` with real processes: it stops the engine that owns the data folder whether
 * `cairn serve` or the stdio door started it, says so (text and --json), exits 0 when nothing
 * runs, names the engine that took over (an attached `cairn serve`), and exits 1 with the pid
 * and a remedy when an engine does not stop in time.
 */
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SettingsStore } from '../../main/engine/config/settings-store.js';
import { dataPaths } from '../../main/engine/config/paths.js';
import { readLock } from '../../main/engine/lock.js';
import { findOrStartEngine } from '../../main/engine/cli/engine-door.js';
import { REPO, cairn } from '../helpers/cli.js';
import { start, type Proc } from '../helpers/processes.js';

const BIN = join(REPO, 'bin', 'cairn.mjs');
let root: string;
let home: string;
const procs: Proc[] = [];

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-stop-'));
  home = join(root, 'home');
  new SettingsStore(home).set({ 'mcp.port': 0 });
});

afterEach(async () => {
  for (const p of procs.splice(0)) await p.stop('SIGKILL');
  const owner = await readLock(dataPaths(home).lock);
  if (owner) process.kill(owner.pid, 'SIGKILL');
  for (let i = 0; i < 100 && (await readLock(dataPaths(home).lock)); i++) await sleep(100);
});

after(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function owner(): Promise<number> {
  for (let i = 0; i < 600; i++) {
    const info = await readLock(dataPaths(home).lock);
    if (info?.url) return info.pid;
    await sleep(100);
  }
  throw new Error('no engine came up');
}

test('nothing running: exit 0, and it says so', async () => {
  const r = await cairn(['stop'], { CAIRN_HOME: home });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /No Cairn engine is running for/);
  const j = await cairn(['stop', '--json'], { CAIRN_HOME: home });
  assert.deepEqual(JSON.parse(j.stdout), { stopped: null, now_serving: null });
});

test('stops a cairn serve: it exits cleanly (0) and the folder is free', async () => {
  const serve = start(process.execPath, [BIN, 'serve'], { CAIRN_HOME: home });
  procs.push(serve);
  const pid = await owner();
  assert.equal(pid, serve.child.pid, 'control: the serve owns the folder before the stop');
  const r = await cairn(['stop'], { CAIRN_HOME: home });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`Stopped the Cairn engine for .* \\(pid ${pid}\\)`));
  assert.equal(await serve.exited, 0);
  assert.equal(await readLock(dataPaths(home).lock), null);
});

test('stops the engine a stdio client started in the background', async () => {
  const engine = await findOrStartEngine(home);
  assert.ok(alive(engine.pid), 'control: the background engine runs');
  const r = await cairn(['stop', '--json'], { CAIRN_HOME: home });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { stopped: engine.pid, now_serving: null });
  assert.equal(alive(engine.pid), false);
  assert.equal(await readLock(dataPaths(home).lock), null);
});

test('a cairn serve attached to the stopped engine takes over (stop names it when it sees it)', async () => {
  const engine = await findOrStartEngine(home);
  const attached = start(process.execPath, [BIN, 'serve'], { CAIRN_HOME: home });
  procs.push(attached);
  await attached.waitFor(/attached to it/);
  const r = await cairn(['stop', '--json'], { CAIRN_HOME: home });
  assert.equal(r.code, 0, r.stderr);
  const outcome = JSON.parse(r.stdout) as { stopped: number; now_serving: { pid: number } | null };
  assert.equal(outcome.stopped, engine.pid);
  assert.equal(alive(engine.pid), false);
  // The successor is reported when it took over within stop's grace second; it takes over in any case.
  if (outcome.now_serving) assert.equal(outcome.now_serving.pid, attached.child.pid);
  assert.equal(await owner(), attached.child.pid);
});

test('an engine that does not stop in time: exit 1, the pid and what to do, and it is left running', async () => {
  // Holds the folder's lock as an engine does, and ignores SIGTERM.
  const script = `const { EngineLock } = await import(${JSON.stringify(join(REPO, 'main/engine/lock.ts'))});
    await EngineLock.acquire(${JSON.stringify(dataPaths(home).lock)});
    process.on('SIGTERM', () => {});
    console.log('holding');
    setInterval(() => {}, 1000);`;
  const stubborn = start(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {});
  procs.push(stubborn);
  await stubborn.waitFor(/holding/);
  const r = await cairn(['stop', '--timeout', '1'], { CAIRN_HOME: home });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`pid ${stubborn.child.pid}\\) did not stop within 1 s`));
  assert.match(r.stderr, /kill -9/);
  assert.ok(alive(stubborn.child.pid!));
  const bad = await cairn(['stop', '--timeout', 'soon'], { CAIRN_HOME: home });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--timeout must be a number of seconds/);
});
