// `cairn files` and the skipped counts of `cairn status`, as separate processes over one data
// folder; `cairn add` with a quoted `~` and with a file instead of a folder.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/engine.js';
import { cairn } from '../helpers/cli.js';
import type { FolderFilesResponse } from '../../main/common/files.js';
import type { EngineStatus } from '../../main/common/status.js';

let me: string;
let env: Record<string, string>;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const t = await tempDir('cli-files');
  cleanups.push(t.cleanup);
  me = join(t.dir, 'me');
  await mkdir(join(me, 'notes'), { recursive: true });
  await writeFile(join(me, 'notes', 'a.md'), '# A\n\nsome text\n');
  await writeFile(join(me, 'notes', 'big.txt'), 'x'.repeat(5000));
  await writeFile(join(me, 'notes', 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));
  env = { CAIRN_HOME: join(t.dir, 'data'), HOME: me };
  await mkdir(env.CAIRN_HOME, { recursive: true });
  await writeFile(join(env.CAIRN_HOME, 'config.json'), JSON.stringify({ index: { max_file_bytes: 2048 } }));
});

after(async () => {
  for (const c of cleanups) await c();
});

test('a quoted ~ is the home folder; a file is refused in words with exit 2', async () => {
  const file = await cairn(['add', join(me, 'notes', 'a.md')], env);
  assert.equal(file.code, 2);
  assert.match(file.stderr, /is a file, not a folder/);
  assert.match(file.stderr, /Add the folder it is in/);
  const add = await cairn(['add', '~/notes', '--text-only'], env);
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, new RegExp(`Added ${join(me, 'notes')}\\. Index it with: cairn index`));
});

test('status counts the skips by reason; files lists them with the reason, as text and --json', async () => {
  const index = await cairn(['index'], env);
  assert.equal(index.code, 0, index.stderr);
  const status = await cairn(['status'], env);
  assert.match(status.stdout, /skipped 2: 1 larger than index\.max_file_bytes, 1 binary content/);
  assert.match(status.stdout, /text only: no vectors are computed/);
  const json = JSON.parse((await cairn(['status', '--json'], env)).stdout) as EngineStatus;
  assert.deepEqual(json.folders[0].skipped?.by_reason, { too_large: 1, binary: 1 });
  const text = await cairn(['files', join(me, 'notes'), '--show', 'skipped'], env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /big\.txt {2}skipped: larger than index\.max_file_bytes \(5000 bytes > 2048\)/);
  assert.match(text.stdout, /image\.png {2}skipped: binary content/);
  const page = JSON.parse(
    (await cairn(['files', join(me, 'notes'), '--limit', '1', '--json'], env)).stdout,
  ) as FolderFilesResponse;
  assert.equal(page.total, 3);
  assert.equal(page.items.length, 1);
  const bad = await cairn(['files', join(me, 'notes'), '--limit', 'lots', '--json'], env);
  assert.equal(bad.code, 2);
  assert.equal((JSON.parse(bad.stdout) as { error: { details: { key: string } } }).error.details.key, 'limit');
});
