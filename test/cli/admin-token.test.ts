/**
 * The admin token of `cairn serve` (issue 12 §11): kept in a 0600 file in a 0700 data folder,
 * the same across restarts of that folder, never in engine.lock, and printed only to a terminal
 * (piped output names the file instead). An existing data folder and config with loose modes
 * are tightened at start. Real `cairn serve` processes; `script` gives one of them a terminal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cairn, eventually, REPO } from '../freshness/lib.js';

const mode = (p: string) => statSync(p).mode & 0o777;

async function start(home: string) {
  const server = cairn(['serve', '--port', '0'], home);
  const m = await eventually(
    'the serve banner',
    async () => /Workbench: (http:\/\/[^/\s#]+)/.exec(server.stdout()) ?? undefined,
    90_000,
  );
  return { server, origin: m[1] };
}

async function stop(server: ReturnType<typeof cairn>) {
  server.child.kill('SIGTERM');
  await server.exit;
}

test('piped serve: the token is not printed, the 0600 file that holds it is named; the lock has no token; modes are tightened; the token survives a restart', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cairn-token-'));
  chmodSync(home, 0o755);
  writeFileSync(join(home, 'config.json'), '{}\n', { mode: 0o644 });
  chmodSync(join(home, 'config.json'), 0o644);

  const first = await start(home);
  let token: string;
  try {
    const file = join(home, 'admin-token');
    token = readFileSync(file, 'utf8').trim();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(mode(file), 0o600, 'admin-token is 0600');
    assert.equal(mode(home), 0o700, 'the data folder was tightened to 0700');
    assert.equal(mode(join(home, 'config.json')), 0o600, 'config.json was tightened to 0600');
    assert.ok(
      !first.server.stdout().includes(token) && !first.server.stderr().includes(token),
      'the token is not in the output',
    );
    assert.match(first.server.stdout(), new RegExp(`admin token in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const lock = readFileSync(join(home, 'engine.lock'), 'utf8');
    assert.ok(!lock.includes(token), 'engine.lock does not hold the token');
    assert.match(lock, /"url":"http/, 'control: the lock is the running one (it has the address)');
    const api = (t: string) => fetch(`${first.origin}/api/status`, { headers: { authorization: `Bearer ${t}` } });
    assert.equal((await api(token)).status, 200, 'the token in the file opens the admin API');
    assert.equal((await api('x'.repeat(43))).status, 401);

    // The CLI finds the running engine through the lock and the token file.
    const status = cairn(['status', '--json'], home);
    const done = await status.exit;
    assert.equal(done.code, 0, status.stderr());
    assert.ok(JSON.parse(status.stdout()).folders, 'status answered by the running engine');
  } finally {
    await stop(first.server);
  }

  const second = await start(home);
  try {
    assert.equal(
      readFileSync(join(home, 'admin-token'), 'utf8').trim(),
      token,
      'the same token after a restart of the same data folder',
    );
    assert.equal(
      (await fetch(`${second.origin}/api/status`, { headers: { authorization: `Bearer ${token}` } })).status,
      200,
    );
  } finally {
    await stop(second.server);
  }
});

test('a token file others can read is not reused: a new one is written 0600', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cairn-token-'));
  mkdirSync(home, { recursive: true });
  const leaked = 'L'.repeat(43);
  writeFileSync(join(home, 'admin-token'), `${leaked}\n`, { mode: 0o644 });
  chmodSync(join(home, 'admin-token'), 0o644);
  const s = await start(home);
  try {
    const now = readFileSync(join(home, 'admin-token'), 'utf8').trim();
    assert.notEqual(now, leaked);
    assert.equal(mode(join(home, 'admin-token')), 0o600);
    assert.equal(
      (await fetch(`${s.origin}/api/status`, { headers: { authorization: `Bearer ${leaked}` } })).status,
      401,
    );
  } finally {
    await stop(s.server);
  }
});

test(
  'control: on a terminal (a pty from script(1)) the workbench address with the token is printed',
  { skip: existsSync('/usr/bin/script') ? false : 'no script(1) here' },
  async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-token-tty-'));
    const cmd = `${process.execPath} --import tsx ${join(REPO, 'main/engine/cli/main.ts')} serve --port 0`;
    const child = spawn('/usr/bin/script', ['-qfec', cmd, '/dev/null'], {
      cwd: REPO,
      env: { ...process.env, CAIRN_HOME: home, LANCEDB_LOG: 'error' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await eventually(
        'the terminal banner',
        async () => (/Workbench: \S+#token=/.test(out) ? true : undefined),
        90_000,
      );
      const token = readFileSync(join(home, 'admin-token'), 'utf8').trim();
      assert.ok(out.includes(`#token=${token}`), 'the terminal shows the address with the token');
    } finally {
      const lock = JSON.parse(readFileSync(join(home, 'engine.lock'), 'utf8')) as { pid: number };
      process.kill(lock.pid, 'SIGTERM');
      await exited;
    }
  },
);
