// ONNX Runtime's own telemetry stays off (embed/runtime-env.ts): the real CLI indexes and answers a
// vector search, in a process whose home and temp folders are fresh, and leaves nothing in either.
// The control runs ONNX Runtime alone on the same model with the same environment and finds the
// runtime's files, so the check can fail (if the control fails, the runtime no longer writes them).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CLI, REPO } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-ort-telemetry-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Every file under `dir`, relative, skipping tsx's compile cache (the test runs the sources). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((p) => !p.startsWith('tsx-'));
}

/**
 * ONNX Runtime keeps its telemetry quiet on build machines, which it tells by these variables (the
 * list is in its library's strings); a user's shell has none of them, so neither has the test's.
 */
const CI_MARKERS = [
  'CI',
  'TF_BUILD',
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'CIRCLECI',
  'TRAVIS',
  'JENKINS_URL',
  'CODEBUILD_BUILD_ID',
  'BUILDKITE',
  'TEAMCITY_VERSION',
  'APPVEYOR',
  'BITBUCKET_BUILD_NUMBER',
];

/** A fresh home and temp folder, and the environment a user's shell would give (no opt-out set). */
function freshUser(name: string): { home: string; temp: string; env: NodeJS.ProcessEnv } {
  const home = join(root, name, 'home');
  const temp = join(root, name, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(temp, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: temp, LANCEDB_LOG: 'error' };
  delete env.ORT_DISABLE_TELEMETRY;
  delete env.XDG_CACHE_HOME;
  for (const name of CI_MARKERS) delete env[name];
  return { home, temp, env };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

test('the engine runs its model without ONNX Runtime writing telemetry files', async () => {
  const user = freshUser('cairn');
  const data = join(root, 'data');
  const folder = join(root, 'notes');
  mkdirSync(folder);
  writeFileSync(join(folder, 'roof.md'), '# Roof repair\n\nCopper flashing around the chimney stops leaks.\n');
  const env = { ...user.env, CAIRN_HOME: data };

  const add = await run([...CLI, 'add', folder], env);
  assert.equal(add.code, 0, add.out);
  const index = await run([...CLI, 'index'], env);
  assert.equal(index.code, 0, index.out);
  const search = await run([...CLI, 'search', 'fixing a leaking roof', '--mode', 'vector', '--json'], env);
  assert.equal(search.code, 0, search.out);
  assert.match(search.out, /roof\.md/, 'the vector search ran the model and found the note');

  assert.deepEqual(filesUnder(user.temp), []);
  assert.deepEqual(filesUnder(user.home), []);

  // Control: the runtime alone, same model, same kind of environment.
  const bare = freshUser('bare');
  const model = join(data, 'models', 'cairn', 'use-lite', 'onnx', 'model.onnx');
  const script = `const ort = (await import('onnxruntime-node')).default;
    const s = await ort.InferenceSession.create(${JSON.stringify(model)});
    await s.release();`;
  const control = await run(['--input-type=module', '-e', script], bare.env);
  assert.equal(control.code, 0, control.out);
  assert.ok(
    filesUnder(bare.temp).some((f) => f.startsWith('mat-debug-')),
    `ONNX Runtime alone leaves its debug log in the temp folder: ${filesUnder(bare.temp).join(', ')}`,
  );
  assert.ok(
    filesUnder(bare.home).some((f) => f.includes('Microsoft')),
    `ONNX Runtime alone writes its device id under the home folder: ${filesUnder(bare.home).join(', ')}`,
  );
});
