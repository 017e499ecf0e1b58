// Issue 12, causes 2, 3 and 12: `read` serves only what indexing admits; credentials are left
// out by default (and counted); the data folder is never indexed, read or served. Every refusal
// has a control beside it: an admitted file in the same place reads, the same secrets are indexed
// where the folder asks for them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import { openEngine } from '../../main/engine/engine.js';
import type { Engine } from '../../main/engine/engine.js';
import { CairnError } from '../../main/engine/errors.js';

const TOKEN = () => `tok${randomBytes(5).toString('hex')}`;
let engine: Engine;
let folder: string;
let root: string;
const tokens: Record<string, string> = {};
const cleanups: (() => Promise<void>)[] = [];

/** A home-like folder: credentials where people keep them, next to ordinary notes. */
const SECRET_FILES = [
  '.ssh/id_rsa',
  '.ssh/id_ed25519',
  '.ssh/config',
  '.aws/credentials',
  '.env',
  '.env.production',
  'app/.env.local',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  'certs/server.pem',
  'certs/tls.key',
  '.gnupg/private.txt',
  '.kube/config',
  '.docker/config.json',
  'keys/id_rsa',
];
const EXCLUDED_BY_RULES = ['.git/config', 'node_modules/pkg/.npmrc', 'private/plan.md', 'build.log', 'dist/out.txt'];
const ADMITTED = ['notes/todo.md', '.env.example', 'src/main.ts'];

before(async () => {
  const t = await tempDir('rules');
  cleanups.push(t.cleanup);
  root = t.dir;
  folder = join(root, 'home');
  for (const rel of [...SECRET_FILES, ...EXCLUDED_BY_RULES, ...ADMITTED]) {
    tokens[rel] = TOKEN();
    await mkdir(join(folder, rel, '..'), { recursive: true });
    await writeFile(join(folder, rel), `${tokens[rel]} content of ${rel}\n`);
  }
  await writeFile(join(folder, '.gitignore'), '*.log\n');
  // Links inside the folder to files the rules leave out: the rules apply to the target.
  await symlink('.env', join(folder, 'notes', 'env-link.md').replace('/notes/', '/'));
  await symlink(join(folder, 'private', 'plan.md'), join(folder, 'notes', 'plan-link.md'));
  await symlink(join(folder, 'notes', 'todo.md'), join(folder, 'notes', 'todo-link.md'));
  const e = await tempEngine({ 'mcp.toolset': 'full' });
  engine = e.engine;
  cleanups.push(e.cleanup);
  await engine.addFolder({ path: folder, exclude: ['private/**'] });
  await indexNow(engine, folder);
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function refused(path: string): Promise<CairnError> {
  let caught: unknown;
  await engine.read({ path }).then(
    () => undefined,
    (e: unknown) => (caught = e),
  );
  assert.ok(caught instanceof CairnError, `${path} was served`);
  assert.equal(caught.code, 'path_outside_folders', `${path}: ${caught.code} ${caught.message}`);
  return caught;
}

test('read refuses secrets, .git/, excluded globs, ignored files and links to them; admitted files read', async () => {
  for (const rel of [...SECRET_FILES, ...EXCLUDED_BY_RULES]) await refused(join(folder, rel));
  // Folder-relative too, and by links whose own names are admitted.
  await refused('.env');
  await refused(join(folder, 'env-link.md'));
  await refused(join(folder, 'notes', 'plan-link.md'));
  const e = await refused(join(folder, '.ssh', 'id_rsa'));
  assert.equal(e.details?.reason, 'secret');
  // Control: admitted files, and a link to one, read.
  for (const rel of ADMITTED)
    assert.ok((await engine.read({ path: join(folder, rel) })).content.includes(tokens[rel]), rel);
  assert.ok(
    (await engine.read({ path: join(folder, 'notes', 'todo-link.md') })).content.includes(tokens['notes/todo.md']),
  );
});

test('secrets are neither indexed nor grepped, and status counts what they kept out', async () => {
  for (const rel of SECRET_FILES) {
    const r = await engine.search({ query: tokens[rel], mode: 'sparse', top_k: 5 });
    assert.equal(r.hits.filter((h) => h.snippet.includes(tokens[rel])).length, 0, `${rel} is in the index`);
  }
  const g = await engine.grep({ pattern: 'tok[0-9a-f]{10} content', regex: true, max_matches: 500 });
  const grepped = new Set(g.matches.map((m) => m.path.slice(folder.length + 1)));
  for (const rel of [...SECRET_FILES, ...EXCLUDED_BY_RULES]) assert.ok(!grepped.has(rel), `grep searched ${rel}`);
  // Control: the admitted files are indexed and grepped.
  for (const rel of ADMITTED) {
    assert.ok(grepped.has(rel), `grep missed ${rel}`);
    const r = await engine.search({ query: tokens[rel], mode: 'sparse', top_k: 5 });
    assert.ok(
      r.hits.some((h) => h.snippet.includes(tokens[rel])),
      `${rel} is not indexed`,
    );
  }
  const st = (await engine.folders()).find((f) => f.path === folder);
  assert.equal(st?.include_secrets, false);
  // .ssh, .aws, .gnupg, .kube and .docker count as one folder each, the rest one file each.
  assert.ok((st?.secrets_excluded ?? 0) >= 10, `secrets_excluded ${st?.secrets_excluded}`);
});

test('a folder that asks for its secrets (include_secrets) indexes and serves them', async () => {
  const other = join(root, 'vault');
  await mkdir(join(other, '.ssh'), { recursive: true });
  const tok = TOKEN();
  await writeFile(join(other, '.ssh', 'id_rsa'), `${tok} key\n`);
  await writeFile(join(other, '.env'), `${tok} env\n`);
  await engine.addFolder({ path: other, include_secrets: true });
  await indexNow(engine, other);
  assert.ok((await engine.read({ path: join(other, '.env') })).content.includes(tok));
  const r = await engine.search({ query: tok, mode: 'sparse', top_k: 5, folders: [other] });
  assert.equal(r.hits.length, 2);
  const st = (await engine.folders()).find((f) => f.path === other);
  assert.equal(st?.include_secrets, true);
  assert.equal(st?.secrets_excluded, 0);
  // .git/ stays out even then.
  await mkdir(join(other, '.git'));
  await writeFile(join(other, '.git', 'config'), '[remote]\n');
  await assert.rejects(
    engine.read({ path: join(other, '.git', 'config') }),
    (e: unknown) => e instanceof CairnError && e.code === 'path_outside_folders',
  );
  await engine.removeFolder(other);
});

test('the data folder: refused as a folder and inside one, left out of a folder that contains it', async () => {
  // An engine whose data folder sits inside a folder a person might index (as ~/.config/Cairn in ~).
  const parent = join(root, 'user-home');
  const data = join(parent, '.config', 'Cairn');
  await mkdir(data, { recursive: true });
  const own = await openEngine({ home: data });
  try {
    for (const p of [data, join(data, 'index')]) {
      await mkdir(p, { recursive: true });
      await assert.rejects(
        own.addFolder({ path: p }),
        (e: unknown) => e instanceof CairnError && e.code === 'invalid_argument' && /data folder/.test(e.message),
        p,
      );
    }
    const planted = TOKEN();
    await writeFile(join(data, 'planted.txt'), `${planted} in the data folder\n`);
    await writeFile(join(data, 'mcp-api-key'), `${planted}key\n`, { mode: 0o600 });
    const besideTok = TOKEN();
    const beside = join(parent, 'notes.txt');
    await writeFile(beside, `${besideTok} beside the data folder\n`);
    // `.config` is no secret folder: only the data folder inside it is left out.
    await writeFile(join(parent, '.config', 'tool.txt'), `${besideTok} in .config\n`);
    await own.addFolder({ path: parent });
    await indexNow(own, parent);
    for (const p of [join(data, 'planted.txt'), join(data, 'mcp-api-key'), join(data, 'config.json')]) {
      await assert.rejects(
        own.read({ path: p }),
        (e: unknown) => e instanceof CairnError && e.code === 'path_outside_folders',
        p,
      );
    }
    assert.equal(
      (await own.search({ query: planted, mode: 'sparse', top_k: 5 })).hits.length,
      0,
      'the data folder was indexed',
    );
    assert.equal((await own.grep({ pattern: planted })).matches.length, 0, 'grep searched the data folder');
    // Control: the files beside it are indexed, grepped and read.
    assert.ok((await own.read({ path: beside })).content.includes(besideTok));
    assert.equal((await own.search({ query: besideTok, mode: 'sparse', top_k: 5 })).hits.length, 2);
    assert.equal((await own.grep({ pattern: besideTok })).matches.length, 2);
  } finally {
    await own.close();
  }
});
