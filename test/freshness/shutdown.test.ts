// Shutdown always completes: SIGTERM at random moments of `cairn serve` start-up (listening,
// opening the index, subscribing the watcher, reconciling) and in the middle of `cairn index`;
// each time the process must exit (bounded wait) and leave the data folder unlocked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, watch } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/engine.js';
import { cairn, eventually, FolderModel, prng, type Cli } from './lib.js';

const SEED = Number(process.env.CAIRN_TEST_SEED ?? 1616);
const STOPS = 8;
let folder: { dir: string; cleanup: () => Promise<void> };

async function homeWithFolder(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const home = await tempDir('stop-home');
  await mkdir(home.dir, { recursive: true });
  await writeFile(
    join(home.dir, 'config.json'),
    JSON.stringify({
      folders: [{ path: folder.dir, include: [], exclude: [] }],
      'embedding.model': 'Xenova/all-MiniLM-L6-v2',
      'mcp.port': 0,
    }),
  );
  return home;
}

/** Resolves with how the process ended, or null when it has not exited within `ms`. */
async function exitWithin(
  cli: Cli,
  ms: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null> {
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([
    cli.exit,
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms))),
  ]);
  clearTimeout(timer);
  return r;
}

before(async () => {
  folder = await tempDir('stop-folder');
  const model = new FolderModel(folder.dir);
  for (let i = 0; i < 300; i++) await model.add(i % 2 ? `d${i % 17}` : undefined);
});

after(async () => {
  await folder?.cleanup();
});

test(
  `SIGTERM at ${STOPS} random moments of serve start-up: the process always exits (seed ${SEED})`,
  { timeout: 600_000 },
  async () => {
    const rand = prng(SEED);
    for (let i = 0; i < STOPS; i++) {
      const home = await homeWithFolder();
      const server = cairn(['serve', '--port', '0'], home.dir);
      try {
        const delay = rand.int(200, 6000);
        await new Promise((r) => setTimeout(r, delay));
        server.child.kill('SIGTERM');
        const ended = await exitWithin(server, 10_000);
        assert.ok(ended, `stop ${i} (after ${delay} ms) did not exit; stderr: ${server.stderr().slice(-2000)}`);
        assert.ok(!existsSync(join(home.dir, 'engine.lock')), `stop ${i}: the lock was left behind`);
      } finally {
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
        await server.exit;
        await home.cleanup();
      }
    }
  },
);

test(
  'SIGTERM the moment serve takes engine.lock: the process exits and the lock is released',
  { timeout: 300_000 },
  async () => {
    for (let i = 0; i < 4; i++) {
      const home = await homeWithFolder();
      let signalled = false;
      // The lock file appearing is the earliest moment a stop can leave it behind.
      const watcher = watch(home.dir, (_event, name) => {
        if (name !== 'engine.lock' || signalled || !existsSync(join(home.dir, 'engine.lock'))) return;
        signalled = true;
        server.child.kill('SIGTERM');
      });
      const server = cairn(['serve', '--port', '0'], home.dir);
      try {
        const ended = await exitWithin(server, 60_000);
        assert.ok(ended, `round ${i} did not exit; stderr: ${server.stderr().slice(-2000)}`);
        assert.ok(signalled, `round ${i}: the lock never appeared; stderr: ${server.stderr().slice(-2000)}`);
        assert.ok(
          !existsSync(join(home.dir, 'engine.lock')),
          `round ${i}: the lock was left behind (${JSON.stringify(ended)})`,
        );
      } finally {
        watcher.close();
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
        await server.exit;
        await home.cleanup();
      }
    }
  },
);

test(
  'SIGTERM during cairn index: the job stops at a checkpoint, the process exits and the lock is released',
  { timeout: 600_000 },
  async () => {
    const home = await homeWithFolder();
    try {
      const run = cairn(['index'], home.dir);
      await eventually(
        'indexing progress',
        async () => (/\d+\/\d+|\d+ of \d+|files found|parsing|writing|scanning/.test(run.stderr()) ? true : undefined),
        120_000,
        50,
      );
      run.child.kill('SIGTERM');
      const ended = await exitWithin(run, 10_000);
      assert.ok(ended, `cairn index did not exit; stderr: ${run.stderr().slice(-2000)}`);
      assert.equal(ended.code, 143, run.stderr());
      assert.match(run.stderr(), /SIGTERM: stopping/);
      assert.ok(!existsSync(join(home.dir, 'engine.lock')), 'the lock was left behind');
      // Control: the next run completes.
      const again = cairn(['index'], home.dir);
      assert.equal((await again.exit).code, 0, again.stderr());
    } finally {
      await home.cleanup();
    }
  },
);
