// The data folder's lock: a live engine keeps it; a lock whose pid is dead, or alive but now some
// other process (pid reuse after a reboot or a crash), is stale and taken over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineLock, selfIdentity } from '../../main/engine/lock.js';
import { REPO } from '../freshness/lib.js';
import { tempDir } from '../helpers/engine.js';

function sleeper(): { pid: number; stop: () => void } {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  return { pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

test(
  'a lock whose pid is alive but not the engine that wrote it is taken over',
  { skip: process.platform !== 'linux' && 'needs /proc' },
  async () => {
    const dir = await tempDir('lock');
    const other = sleeper();
    try {
      const file = join(dir.dir, 'engine.lock');
      const me = selfIdentity();
      assert.ok(me.proc_start && me.boot, 'this process has no identity to record');
      // The pid now belongs to `sleep`, which started at another time than the recorded engine.
      await writeFile(
        file,
        JSON.stringify({ pid: other.pid, started: new Date(0).toISOString(), boot: me.boot, proc_start: '1' }),
      );
      const lock = await EngineLock.acquire(file);
      assert.equal((JSON.parse(await readFile(file, 'utf8')) as { pid: number }).pid, process.pid);
      await lock.release();
      // A lock from after a reboot (another boot id) is stale whatever the pid is.
      await writeFile(
        file,
        JSON.stringify({ pid: other.pid, started: new Date(0).toISOString(), boot: 'another-boot', proc_start: '1' }),
      );
      await (await EngineLock.acquire(file)).release();
      // An old-format lock (no identity) held by a process that cannot be an engine.
      await writeFile(file, JSON.stringify({ pid: other.pid, started: new Date(0).toISOString() }));
      await (await EngineLock.acquire(file)).release();
    } finally {
      other.stop();
      await dir.cleanup();
    }
  },
);

test('control: a lock held by a live engine process is kept (engine_locked)', async () => {
  const dir = await tempDir('lock-live');
  const file = join(dir.dir, 'engine.lock');
  const holder = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `
    const { EngineLock } = await import(${JSON.stringify(join(REPO, 'main/engine/lock.ts'))});
    await EngineLock.acquire(${JSON.stringify(file)});
    process.stdout.write('held\\n');
    setInterval(() => {}, 1000);
  `,
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
      holder.once('exit', (c) => reject(new Error(`holder exited ${c}`)));
    });
    await assert.rejects(EngineLock.acquire(file), (err: { code?: string }) => err.code === 'engine_locked');
  } finally {
    holder.kill('SIGKILL');
    await dir.cleanup();
  }
});

test('a release during an update (the serve address being written) leaves no lock behind', async () => {
  const dir = await tempDir('lock-update');
  try {
    const file = join(dir.dir, 'engine.lock');
    for (let i = 0; i < 20; i++) {
      const lock = await EngineLock.acquire(file);
      // Not awaited: the stop comes while the address is still being written.
      const writing = lock.update({ url: 'http://127.0.0.1:1', mcp: 'http://127.0.0.1:1/mcp' });
      await lock.release();
      await writing;
      assert.equal(existsSync(file), false, `round ${i}: the update brought the lock back after the release`);
    }
    // Control: an update that is not raced by a release is written.
    const lock = await EngineLock.acquire(file);
    await lock.update({ url: 'http://127.0.0.1:2' });
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as { url: string }).url, 'http://127.0.0.1:2');
    await lock.release();
    assert.equal(existsSync(file), false);
  } finally {
    await dir.cleanup();
  }
});

/** Processes that each try to take `file` at the same moment; what each printed. */
async function contenders(file: string, n: number): Promise<string[]> {
  const at = Date.now() + 1500;
  const child = join(REPO, 'test/engine/lock-child.ts');
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<string>((resolve, reject) => {
          const p = spawn(process.execPath, ['--import', 'tsx', child, file, String(at), '1500'], {
            cwd: REPO,
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          p.stdout.on('data', (d: Buffer) => (out += d.toString()));
          p.on('error', reject);
          p.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`contender exited ${code}`))));
        }),
    ),
  );
}

test('engines starting together: exactly one takes the lock, fresh or stale', { timeout: 120_000 }, async () => {
  const dir = await tempDir('lock-race');
  try {
    const file = join(dir.dir, 'engine.lock');
    for (let round = 0; round < 4; round++) {
      // Odd rounds start from a stale lock (a dead pid), which every contender judges stale at once.
      if (round % 2 === 1) await writeFile(file, JSON.stringify({ pid: 2 ** 22 + 12345, started: 'long ago' }));
      const said = await contenders(file, 6);
      assert.equal(said.filter((s) => s === 'took').length, 1, `round ${round}: ${said.join(', ')}`);
      assert.equal(said.filter((s) => s === 'locked').length, 5, `round ${round}: ${said.join(', ')}`);
      // Control: once the holder has let go, the next one takes it.
      assert.deepEqual(await contenders(file, 1), ['took']);
    }
  } finally {
    await dir.cleanup();
  }
});

test('a lock file still empty (being written) is waited for, and taken once it has stayed empty', async () => {
  const dir = await tempDir('lock-empty');
  try {
    const file = join(dir.dir, 'engine.lock');
    await writeFile(file, '');
    const started = Date.now();
    const lock = await EngineLock.acquire(file);
    // Taken, but only after the empty file had its time to be written (2 s).
    assert.ok(Date.now() - started >= 1500, `taken after ${Date.now() - started} ms`);
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as { pid: number }).pid, process.pid);
    await lock.release();
  } finally {
    await dir.cleanup();
  }
});
