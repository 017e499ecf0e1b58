// The CLI end to end, as a person or a script runs it: separate processes, a real data folder.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFixtureFolder, type FixtureInfo } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/engine.js';
import { cairn } from '../helpers/cli.js';
import type { SearchResponse } from '../../main/common/search.js';
import type { EngineStatus } from '../../main/common/status.js';

let fx: FixtureInfo;
let env: Record<string, string>;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const f = await tempDir('cli-fixture');
  const h = await tempDir('cli-home');
  cleanups.push(f.cleanup, h.cleanup);
  fx = await makeFixtureFolder(f.dir);
  env = { CAIRN_HOME: h.dir };
  await writeFile(join(h.dir, 'config.json'), JSON.stringify({ index: { max_file_bytes: fx.maxFileBytes } }));
});

after(async () => {
  for (const c of cleanups) await c();
});

test('add, index, search --json in every mode, status', async () => {
  const add = await cairn(['add', fx.folder, '--exclude', 'docs/notes.docx'], env);
  assert.equal(add.code, 0, add.stderr);
  const index = await cairn(['index'], env);
  assert.equal(index.code, 0, index.stderr);
  assert.match(index.stdout, /done/);
  for (const mode of ['sparse', 'vector', 'hybrid', 'tribrid']) {
    const r = await cairn(
      ['search', 'haversine_distance great-circle distance', '--mode', mode, '--top-k', '5', '--json'],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    const res = JSON.parse(r.stdout) as SearchResponse;
    assert.equal(res.mode, mode);
    assert.ok(res.hits.length > 0 && res.hits.length <= 5);
    const geo = res.hits.find((h) => h.path.endsWith('py/geo.py'));
    assert.ok(geo, `${mode}: ${res.hits.map((h) => h.path).join(', ')}`);
    const sym = fx.symbols.find((s) => s.name === 'haversine_distance');
    assert.ok(sym && geo.start_line >= 1 && geo.end_line >= geo.start_line);
    for (const k of ['path', 'start_line', 'end_line', 'snippet', 'score', 'legs', 'freshness'] as const)
      assert.ok(k in geo, `hit lacks ${k}`);
  }
  const excluded = await cairn(['search', 'copper flashing', '--mode', 'sparse', '--json'], env);
  assert.ok(
    (JSON.parse(excluded.stdout) as SearchResponse).hits.every((h) => !h.path.endsWith('notes.docx')),
    'the --exclude glob was ignored',
  );
  const st = await cairn(['status', '--json'], env);
  assert.equal(st.code, 0, st.stderr);
  const status = JSON.parse(st.stdout) as EngineStatus;
  assert.equal(status.folders.length, 1);
  assert.equal(status.folders[0].state, 'fresh');
  assert.ok(status.folders[0].chunks > 10);
  const human = await cairn(['search', 'parseInvoiceTotals', '--mode', 'sparse', '--top-k', '1'], env);
  assert.equal(human.code, 0);
  assert.match(human.stdout, /src\/invoice\.ts:\d+-\d+/);
});

test('typed errors: JSON on stdout, documented exit codes', async () => {
  const badMode = await cairn(['search', 'x', '--mode', 'bogus', '--json'], env);
  assert.equal(badMode.code, 2);
  assert.equal(JSON.parse(badMode.stdout).error.code, 'invalid_argument');
  const badK = await cairn(['search', 'x', '--top-k', '101', '--json'], env);
  assert.equal(badK.code, 2);
  // Read and checked by the contract's own rules before anything is sent.
  const nanK = await cairn(['search', 'x', '--top-k', 'abc', '--json'], env);
  assert.equal(nanK.code, 2);
  assert.deepEqual(JSON.parse(nanK.stdout).error.details, { key: 'top_k' });
  assert.match(JSON.parse(nanK.stdout).error.message, /--top-k: top_k must be an integer from 1 to 100, got "abc"/);
  const banana = await cairn(['search', 'x', '--type', 'banana'], env);
  assert.equal(banana.code, 2);
  assert.match(banana.stderr, /unknown file type "banana".*glob/);
  const okType = await cairn(['search', 'x', '--type', '.MD', '--mode', 'sparse', '--json'], env);
  assert.equal(okType.code, 0, `a known type in any spelling is accepted: ${okType.stderr}`);
  const noQuery = await cairn(['search'], env);
  assert.equal(noQuery.code, 2);
  assert.match(noQuery.stderr, /usage/);
  const unknown = await cairn(['frobnicate'], env);
  assert.equal(unknown.code, 2);
  const notDir = await cairn(['add', '/definitely/not/here', '--json'], env);
  assert.equal(notDir.code, 2);
  assert.equal(JSON.parse(notDir.stdout).error.code, 'invalid_argument');
  const twice = await cairn(['add', fx.folder, '--json'], env);
  assert.equal(JSON.parse(twice.stdout).error.code, 'conflict');
});

test('a contract mismatch exits 3 with a re-index remedy; sparse still answers', async () => {
  const h = await tempDir('cli-mismatch');
  cleanups.push(h.cleanup);
  const e = { CAIRN_HOME: h.dir };
  await cairn(['add', join(fx.folder, 'py')], e);
  assert.equal((await cairn(['index'], e)).code, 0);
  const cfg = JSON.parse(
    await (await import('node:fs/promises')).readFile(join(h.dir, 'config.json'), 'utf8'),
  ) as Record<string, unknown>;
  await writeFile(
    join(h.dir, 'config.json'),
    JSON.stringify({ ...cfg, embedding: { model: 'Xenova/all-MiniLM-L6-v2' } }),
  );
  const r = await cairn(['search', 'distance', '--mode', 'hybrid', '--json'], e);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  const err = JSON.parse(r.stdout).error;
  assert.equal(err.code, 'embedding_contract_mismatch');
  assert.match(err.remedy, /re-index/i);
  const sparse = await cairn(['search', 'distance', '--mode', 'sparse', '--json'], e);
  assert.equal(sparse.code, 0);
});

test('an invalid config file is refused naming the key and the rule, and left untouched', async () => {
  const h = await tempDir('cli-badconfig');
  cleanups.push(h.cleanup);
  const text = JSON.stringify({ mcp: { default_top_k: 500 } });
  await writeFile(join(h.dir, 'config.json'), text);
  const r = await cairn(['status', '--json'], { CAIRN_HOME: h.dir });
  assert.equal(r.code, 2);
  const err = JSON.parse(r.stdout).error;
  assert.equal(err.code, 'config_invalid');
  assert.match(err.message, /mcp\.default_top_k/);
  // The message says the rule in words; the rule's name stays in the details for programs.
  assert.match(err.message, /must be at most 100/);
  assert.equal(err.details.issues[0].rule, 'maximum');
  assert.equal(await (await import('node:fs/promises')).readFile(join(h.dir, 'config.json'), 'utf8'), text);
});
