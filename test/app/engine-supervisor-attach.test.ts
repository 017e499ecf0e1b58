// The desktop shell when an engine already runs (a `cairn serve`, or one a stdio client started):
// the supervisor's engine child attaches instead of exiting "locked", and the shell gets that
// engine's address and admin token; when that engine stops, the child takes over with the
// shell's own token. Real processes: Node's fork stands in for utilityProcess.fork (no Electron
// binary here), the engine is the real CLI.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineSupervisor, type SpawnEngine } from '../../main/app/engine-supervisor.js';
import type { EngineAddress } from '../../main/app/channels.js';
import { REPO } from '../helpers/cli.js';
import { servedAt, start } from '../helpers/processes.js';

const BIN = join(REPO, 'bin', 'cairn.mjs');
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function nextAddress(sup: EngineSupervisor, pred: (a: EngineAddress) => boolean): Promise<EngineAddress> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timed out waiting for an address')), 120_000);
    const on = (a: EngineAddress | null) => {
      if (!a || !pred(a)) return;
      clearTimeout(t);
      sup.off('address', on);
      resolve(a);
    };
    sup.on('address', on);
  });
}

test('an engine already runs: the shell attaches to it, then takes over when it stops', async () => {
  const home = await mkdtemp(join(tmpdir(), 'cairn-attach-'));
  const first = start(process.execPath, [BIN, 'serve', '--port', '0'], { CAIRN_HOME: home });
  const appToken = 'app-token-0123456789abcdef';
  const spawn: SpawnEngine = (entry, args, env, execArgv) => {
    const child = fork(entry, args, {
      env: { ...process.env, ...env, LANCEDB_LOG: 'error' },
      execArgv,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    children.push(child);
    return child;
  };
  const sup = new EngineSupervisor({
    spawn,
    entry: BIN,
    args: ['serve', '--port', '0'],
    env: { CAIRN_HOME: home },
    adminToken: appToken,
    initialBackoffMs: 10,
    tokenFile: join(home, 'admin-token'),
  });
  try {
    const running = await servedAt(first);
    const attached = nextAddress(sup, () => true);
    sup.start();
    const a = await attached;
    assert.deepEqual(a, { baseUrl: running.origin, adminToken: running.token });
    assert.equal(
      (await fetch(`${a.baseUrl}/api/status`, { headers: { authorization: `Bearer ${a.adminToken}` } })).status,
      200,
    );
    assert.equal(sup.current, 'running');

    const own = nextAddress(sup, (x) => x.adminToken === appToken);
    await first.stop();
    const b = await own;
    assert.notEqual(b.baseUrl, a.baseUrl);
    assert.equal(
      (await fetch(`${b.baseUrl}/api/status`, { headers: { authorization: `Bearer ${appToken}` } })).status,
      200,
    );
    // Control: the first engine's token is not accepted by the new one.
    assert.equal(
      (await fetch(`${b.baseUrl}/api/status`, { headers: { authorization: `Bearer ${a.adminToken}` } })).status,
      401,
    );
  } finally {
    await sup.stop();
    await first.stop();
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
});
