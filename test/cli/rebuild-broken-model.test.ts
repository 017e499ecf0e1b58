// A rebuild whose model cannot load has not done what it was asked (vectors under the configured
// model): it fails with the dependency exit code, not "done", exit 0. The control: the same
// rebuild with the built-in model succeeds. No hub is reachable: HF_ENDPOINT points at a closed port.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/engine.js';
import { cairn } from '../helpers/cli.js';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups) await c();
});

async function setup(model: string): Promise<Record<string, string>> {
  const f = await tempDir('cli-rebuild-folder');
  const h = await tempDir('cli-rebuild-home');
  cleanups.push(f.cleanup, h.cleanup);
  await writeFile(join(f.dir, 'a.md'), '# Canal locks\n\nThe lock opens twice an hour.\n');
  await writeFile(join(h.dir, 'config.json'), JSON.stringify({ embedding: { model }, folders: [{ path: f.dir }] }));
  return { CAIRN_HOME: h.dir, HF_ENDPOINT: 'http://127.0.0.1:9/' };
}

test('cairn index --rebuild with a model that cannot load exits 4 and says why', async () => {
  const env = await setup('someone/absent-model');
  const r = await cairn(['index', '--rebuild'], env);
  assert.equal(r.code, 4, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, /someone\/absent-model/);
  assert.doesNotMatch(r.stderr, /reading '|<dataDir>/);
});

test('control: the same rebuild with the built-in model exits 0', async () => {
  const env = await setup('cairn/use-lite');
  const r = await cairn(['index', '--rebuild'], env);
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /: done/);
});
