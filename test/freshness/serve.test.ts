// Freshness end to end: a real `cairn serve` child with its watcher, driven over the admin API and
// the CLI, while files are written, edited, renamed and deleted on disk.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SearchResponse } from '../../main/common/search.js';
import type { EngineStatus } from '../../main/common/status.js';
import { tempDir } from '../helpers/engine.js';
import { cairn, eventually, type Cli } from './lib.js';

const TOKEN = 'freshness-e2e-admin-token-0123456789';
let home: { dir: string; cleanup: () => Promise<void> };
let folder: { dir: string; cleanup: () => Promise<void> };
let server: Cli;
let base: string;

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function search(query: string, freshness?: 'wait_for_fresh'): Promise<SearchResponse> {
  const res = await api<SearchResponse>('POST', '/api/search', {
    query,
    mode: 'sparse',
    top_k: 20,
    ...(freshness ? { freshness } : {}),
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function paths(query: string, freshness?: 'wait_for_fresh'): Promise<string[]> {
  return [...new Set((await search(query, freshness)).hits.map((h) => h.path))].sort();
}

const note = (tok: string) => `# Field notes\n\nToday we logged ${tok} near the river.\n`;

before(async () => {
  home = await tempDir('serve-home');
  folder = await tempDir('serve-folder');
  await writeFile(join(folder.dir, 'alpha.md'), note('alphaone'));
  await writeFile(join(folder.dir, 'beta.md'), note('betaone'));
  server = cairn(['serve', '--port', '0'], home.dir, { CAIRN_ADMIN_TOKEN: TOKEN });
  const banner = await eventually(
    'the serve banner',
    async () => /Workbench: (http:\/\/[^/\s#]+)/.exec(server.stdout()) ?? undefined,
    60_000,
  );
  base = banner[1];
  assert.match(server.stdout(), /MCP: http:\/\/127\.0\.0\.1:\d+\/mcp/);
  // Not a terminal: the token is not printed, the file that holds it is named instead.
  assert.doesNotMatch(server.stdout(), new RegExp(TOKEN));
  assert.match(server.stdout(), /admin token in .*admin-token/);
});

after(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await server.exit;
  }
  await home?.cleanup();
  await folder?.cleanup();
});

// A plain second serve attaches to this engine (test/cli/one-engine); --exclusive keeps the refusal.
test('a second serve --exclusive on the same data folder refuses with exit code 5', { timeout: 60_000 }, async () => {
  const second = cairn(['serve', '--exclusive', '--port', '0'], home.dir, { CAIRN_ADMIN_TOKEN: TOKEN });
  const { code } = await second.exit;
  assert.equal(code, 5, second.stderr());
  assert.match(second.stderr(), /Another Cairn engine \(pid \d+/);
  assert.match(second.stderr(), /serves at http:\/\/127\.0\.0\.1/);
});

test(
  'an added folder is indexed by the running engine and searchable with wait_for_fresh',
  { timeout: 120_000 },
  async () => {
    const added = await api<{ path: string }>('POST', '/api/folders', { path: folder.dir });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    // The first index of a folder waits for the model's tokenizer; on a loaded machine that can
    // outlast wait_for_fresh's bound, and then the answer must say the folder is not fresh yet.
    const first = await search('alphaone', 'wait_for_fresh');
    if (first.hits.length === 0) {
      assert.notEqual(
        first.folders[folder.dir].state,
        'fresh',
        `an empty answer from a folder that says it is fresh: ${JSON.stringify(first.folders)}`,
      );
      await eventually(
        'the first index',
        async () => ((await paths('alphaone')).length > 0 ? true : undefined),
        120_000,
        250,
      );
    }
    assert.deepEqual(await paths('alphaone', 'wait_for_fresh'), [join(folder.dir, 'alpha.md')]);
    const res = await search('betaone', 'wait_for_fresh');
    assert.deepEqual(
      res.hits.map((h) => h.path),
      [join(folder.dir, 'beta.md')],
    );
    assert.ok(['fresh', 'indexing'].includes(res.hits[0].freshness.state), JSON.stringify(res.hits[0].freshness));
  },
);

test('writes, edits, renames and deletes show up with wait_for_fresh', { timeout: 120_000 }, async () => {
  const alpha = join(folder.dir, 'alpha.md');
  const gamma = join(folder.dir, 'gamma.md');
  await writeFile(gamma, note('gammaone'));
  assert.deepEqual(await paths('gammaone', 'wait_for_fresh'), [gamma], 'new file');

  await writeFile(alpha, note('alphatwo'));
  assert.deepEqual(await paths('alphatwo', 'wait_for_fresh'), [alpha], 'edit: new text');
  assert.deepEqual(await paths('alphaone'), [], 'edit: old text gone');

  const moved = join(folder.dir, 'renamed-alpha.md');
  await rename(alpha, moved);
  assert.deepEqual(await paths('alphatwo', 'wait_for_fresh'), [moved], 'rename');

  await rm(join(folder.dir, 'beta.md'));
  assert.deepEqual(await paths('betaone', 'wait_for_fresh'), [], 'delete');

  const res = await search('gammaone');
  assert.equal(res.folders[folder.dir].pending_changes, 0);
});

test('a new subfolder created with files inside is picked up', { timeout: 120_000 }, async () => {
  const deep = join(folder.dir, 'sub', 'deeper', 'deepest');
  await mkdir(deep, { recursive: true });
  await writeFile(join(deep, 'one.md'), note('deeponefile'));
  await writeFile(join(folder.dir, 'sub', 'two.ts'), `export const marker = 'deeptwofile';\n`);
  assert.deepEqual(await paths('deeponefile', 'wait_for_fresh'), [join(deep, 'one.md')]);
  assert.deepEqual(await paths('deeptwofile', 'wait_for_fresh'), [join(folder.dir, 'sub', 'two.ts')]);
});

test('without wait_for_fresh, an edit shows up on its own within seconds', { timeout: 120_000 }, async () => {
  const file = join(folder.dir, 'eventual.md');
  await writeFile(file, note('eventualone'));
  await eventually(
    'the new file in eventual search',
    async () => ((await paths('eventualone')).length === 1 ? true : undefined),
    60_000,
    200,
  );
  await writeFile(file, note('eventualtwo'));
  await eventually(
    'the edit in eventual search',
    async () =>
      (await paths('eventualtwo')).length === 1 && (await paths('eventualone')).length === 0 ? true : undefined,
    60_000,
    200,
  );
});

test('cairn status --json goes through the running serve and tells the truth', { timeout: 120_000 }, async () => {
  // Settle first: the status must then say fresh, with the counts of what is on disk.
  await search('anything', 'wait_for_fresh');
  await eventually(
    'vectors for every chunk',
    async () => {
      const st = (await api<EngineStatus>('GET', '/api/status')).body.folders[0];
      return st.state === 'fresh' && st.freshness.vector_coverage === 1 ? true : undefined;
    },
    90_000,
    250,
  );
  const cli = cairn(['status', '--json'], home.dir);
  const { code } = await cli.exit;
  assert.equal(code, 0, cli.stderr());
  const status = JSON.parse(cli.stdout()) as EngineStatus;
  const [f] = status.folders;
  assert.equal(f.path, folder.dir);
  assert.equal(f.state, 'fresh');
  // renamed-alpha.md, gamma.md, sub/deeper/deepest/one.md, sub/two.ts, eventual.md
  assert.equal(f.files, 5, JSON.stringify(f));
  assert.equal(f.file_errors, 0);
  assert.equal(f.freshness.pending_changes, 0);
  assert.equal(f.embedded_chunks, f.chunks);
  assert.ok(f.updated_at && Date.parse(f.updated_at) > 0);
  assert.equal(status.jobs.filter((j) => !j.finished_at).length, 0);
  // The CLI's search goes through the same engine: it sees the live state.
  const s = cairn(['search', 'gammaone', '--mode', 'sparse', '--json'], home.dir);
  assert.equal((await s.exit).code, 0, s.stderr());
  assert.deepEqual(
    (JSON.parse(s.stdout()) as SearchResponse).hits.map((h) => h.path),
    [join(folder.dir, 'gamma.md')],
  );
});

test('SIGTERM stops serve cleanly and removes the lock', { timeout: 60_000 }, async () => {
  const lock = join(home.dir, 'engine.lock');
  assert.ok(existsSync(lock));
  server.child.kill('SIGTERM');
  const { code, signal } = await server.exit;
  assert.equal(signal, null);
  assert.equal(code, 0, server.stderr());
  assert.ok(!existsSync(lock), 'the lock file is left behind');
  // And the index it leaves opens and answers.
  const cli = cairn(['search', 'gammaone', '--mode', 'sparse', '--json'], home.dir);
  assert.equal((await cli.exit).code, 0, cli.stderr());
  assert.equal((JSON.parse(cli.stdout()) as SearchResponse).hits.length, 1);
});
