// `cairn index` beside a running `cairn serve`: the CLI's job waits behind the serve's own job for
// the folder, and the CLI shows that job's real progress (not "0% scanning" for as long as it takes),
// in one progress model whose numbers agree, with an ETA in words; the folder's "updated" time is
// the end of the sync, not the last file written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { tempDir } from '../helpers/engine.js';
import { CLI, REPO, cairn } from '../helpers/cli.js';
import type { EngineStatus } from '../../main/common/status.js';

let serve: ChildProcess;
let origin = '';
let env: Record<string, string>;
let folder = '';
const token = randomBytes(24).toString('base64url');
const cleanups: (() => Promise<void>)[] = [];

async function admin(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(origin + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

before(async () => {
  const f = await tempDir('cli-serve-folder');
  const h = await tempDir('cli-serve-home');
  cleanups.push(f.cleanup, h.cleanup);
  folder = f.dir;
  // Enough notes that computing their vectors takes a while with the real built-in model.
  await mkdir(join(folder, 'notes'), { recursive: true });
  for (let i = 0; i < 120; i++) {
    await writeFile(
      join(folder, 'notes', `note-${i}.md`),
      `# Note ${i}\n\nThe meeting about invoice ${i} covered rounding, taxes and the quarterly budget.\n\n## Follow-up ${i}\n\nSend the revised totals to the accounting team before Friday, item ${i}.\n`,
    );
  }
  env = { CAIRN_HOME: h.dir, CAIRN_ADMIN_TOKEN: token };
  serve = spawn(process.execPath, [...CLI, 'serve', '--port', '0'], {
    cwd: REPO,
    env: { ...process.env, LANCEDB_LOG: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Workbench:\s*(http:\/\/[^/\s#]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    serve.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
});

after(async () => {
  if (serve.exitCode === null) {
    const exited = new Promise((r) => serve.once('exit', r));
    serve.kill('SIGTERM');
    await exited;
  }
  for (const c of cleanups) await c();
});

test('cairn index beside a running serve follows the real job, with numbers that agree', async () => {
  // Hold indexing, so the serve's own job for the folder is there first, deterministically.
  await admin('POST', '/api/jobs/paused', { paused: true });
  await admin('POST', '/api/folders', { path: folder });
  const started = Date.now();
  const child = spawn(process.execPath, [...CLI, 'index', folder], {
    cwd: REPO,
    env: { ...process.env, LANCEDB_LOG: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  const sawQueued = new Promise<void>((resolve) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('queued behind')) resolve();
    });
  });
  const exited = new Promise<number>((r) => child.once('exit', (code) => r(code ?? -1)));
  await sawQueued;
  await admin('POST', '/api/jobs/paused', { paused: false });
  const code = await exited;
  assert.equal(code, 0, stderr);
  assert.match(stdout, /: done/);

  const lines = stderr.split('\n').filter(Boolean);
  const waiting = lines.filter((l) => l.includes("queued behind this folder's current job"));
  assert.ok(waiting.length > 0, lines.join('\n'));
  // While it waits it shows the job it waits for, in words, never its own empty "scanning 0/0".
  for (const l of waiting) assert.doesNotMatch(l, /scanning: 0 files, 0 chunks/);
  assert.ok(
    lines.some((l) => /reading files into the text index|computing vectors|finding files/.test(l)),
    lines.join('\n'),
  );
  for (const l of lines) {
    assert.doesNotMatch(l, /ETA \d+s|\d+ s left/, `an ETA in raw seconds: ${l}`);
    for (const m of l.matchAll(/([\d,]+) of ([\d,]+) (chunks|files)/g)) {
      const [done, total] = [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))];
      assert.ok(done <= total, `done above total: ${l}`);
    }
  }
  const status = (await admin('GET', '/api/status')) as EngineStatus;
  const f = status.folders.find((x) => x.path === folder);
  assert.ok(f && f.state === 'fresh', JSON.stringify(f));
  assert.equal(f.embedded_chunks, f.chunks, 'every chunk has its vector once the job is done');
  assert.ok(
    f.updated_at && Date.parse(f.updated_at) >= started,
    `updated_at ${f.updated_at} is the end of the sync, after the CLI started`,
  );

  // Without the serve's job in the way, the human status agrees with the JSON.
  const human = await cairn(['status'], env);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, new RegExp(`${f.files} files, ${f.chunks} chunks vectors 100%`));
});
