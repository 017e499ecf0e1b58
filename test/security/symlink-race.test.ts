// Issue 12, cause 1: check-then-reopen races. A directory symlink inside the folder is flipped
// between an inside and an outside target by another process (another uid when run as root) while
// read, grep and the indexer open files through it. Each runs a bounded number of attempts and
// must leak nothing; the control is the old algorithm (realpath check, then open the path again),
// run over the same flips until it leaks, which shows the race window is really being hit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readlink, realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import { tempDir, tempEngine, indexNow } from '../helpers/engine.js';
import type { Engine } from '../../main/engine/engine.js';
import { FolderAccess, accessOptions } from '../../main/engine/sources/access.js';
import { readAndParse, fallbackCount } from '../../main/engine/ingest/parse-task.js';
import { NOBODY, raceTree, startFlipper, type RaceTree } from './race-helpers.js';

const ATTEMPTS = 300;
let tree: RaceTree;
let engine: Engine;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const t = await tempDir('race');
  cleanups.push(t.cleanup);
  tree = await raceTree(t.dir);
  const e = await tempEngine({ 'mcp.toolset': 'full' });
  engine = e.engine;
  cleanups.push(e.cleanup);
  await engine.addFolder({ path: tree.folder });
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** The old `read` containment: realpath says inside, then the lexical path is opened again. */
async function oldRead(path: string, folder: string): Promise<string | null> {
  try {
    const [real, root] = await Promise.all([realpath(path), realpath(folder)]);
    if (!real.startsWith(root + sep)) return null;
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** Runs `attempt` ATTEMPTS times under flipping; returns what leaked, what was served from inside, and whether the link was seen pointing out. */
async function underFlips(
  attempt: () => Promise<string>,
): Promise<{ leaks: number; inside: number; sawOutside: boolean; control: number; uid: number }> {
  const flipper = await startFlipper(tree.folder);
  try {
    let leaks = 0;
    let inside = 0;
    let sawOutside = false;
    for (let i = 0; i < ATTEMPTS; i++) {
      const got = await attempt();
      if (got.includes(tree.outsideToken)) leaks++;
      if (got.includes(tree.insideToken)) inside++;
      if ((await readlink(`${tree.folder}/link`).catch(() => '')).includes('outside')) sawOutside = true;
    }
    // The control: the old algorithm over the same flips leaks (bounded; it usually does within a few hundred).
    let control = 0;
    for (let i = 0; i < 20_000 && control === 0; i++)
      if ((await oldRead(tree.target, tree.folder))?.includes(tree.outsideToken)) control++;
    return { leaks, inside, sawOutside, control, uid: flipper.uid };
  } finally {
    await flipper.stop();
  }
}

function check(name: string, r: Awaited<ReturnType<typeof underFlips>>): void {
  if (process.getuid?.() === 0) assert.equal(r.uid, NOBODY, 'the flipper runs as another user');
  assert.equal(r.leaks, 0, `${name}: ${r.leaks} of ${ATTEMPTS} attempts served the outside file`);
  assert.ok(r.sawOutside, `${name}: the link never pointed outside during the run`);
  assert.ok(
    r.control > 0,
    `${name}: the old check-then-open never leaked over the same flips: the race window was not hit`,
  );
  assert.ok(r.inside > 0, `${name}: nothing was served from inside either (the attempts must be able to succeed)`);
}

test('read through a flipping directory symlink never serves the outside file', async () => {
  const r = await underFlips(async () => {
    try {
      return (await engine.read({ path: tree.target })).content;
    } catch (err) {
      return String((err as Error).message);
    }
  });
  check('read', r);
});

test('the file door itself, opened 300 times under flips, never returns outside bytes', async () => {
  const door = () =>
    new FolderAccess({ path: tree.folder }, { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] });
  const r = await underFlips(async () => {
    try {
      return (await door().readFile(tree.target)).bytes.toString();
    } catch {
      return '';
    }
  });
  check('door', r);
});

test('grep through a flipping directory symlink never matches in the outside file', async () => {
  const r = await underFlips(async () => {
    try {
      const res = await engine.grep({ pattern: `${tree.outsideToken}|${tree.insideToken}`, regex: true });
      return res.matches.map((m) => m.text).join('\n');
    } catch (err) {
      return String((err as Error).message);
    }
  });
  check('grep', r);
});

test('the indexer reads through the door: no parse of the flipping path yields outside text, and no index run stores it', async () => {
  const access = {
    spec: { path: tree.folder },
    opts: accessOptions({ maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] }),
    epoch: 0,
  };
  let n = 0;
  const r = await underFlips(async () => {
    const rows = await readAndParse(
      {
        folder: tree.folder,
        src: { path: tree.target, rel: 'link/secret.txt', size: 40, mtimeMs: 0 },
        rebuild: true,
        access: { ...access, epoch: n++ },
      },
      { maxTokens: 256, countTokens: fallbackCount },
      undefined,
      // Every other attempt reads as the parse workers do, without the thread pool.
      n % 2 === 0,
    );
    return rows === 'unchanged' ? '' : rows.chunks.map((c) => c.text).join('\n');
  });
  check('indexer parse', r);
  const flipper = await startFlipper(tree.folder);
  try {
    for (let i = 0; i < 5; i++) await indexNow(engine, tree.folder, 'rebuild');
  } finally {
    await flipper.stop();
  }
  const hits = await engine.search({ query: tree.outsideToken, mode: 'sparse', top_k: 10 });
  assert.equal(
    hits.hits.filter((h) => h.snippet.includes(tree.outsideToken)).length,
    0,
    'the outside file reached the index',
  );
  // Control: the same search finds the inside file's token.
  const inside = await engine.search({ query: tree.insideToken, mode: 'sparse', top_k: 10 });
  assert.ok(
    inside.hits.some((h) => h.snippet.includes(tree.insideToken)),
    'the inside file is not searchable: the check proves nothing',
  );
});
