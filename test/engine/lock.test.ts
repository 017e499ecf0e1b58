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
