// `cairn index --rebuild` while `cairn serve` runs goes through the running engine, and when the
// index is damaged the rebuild never merges into it: it is refused, naming the damage, and the
// serving engine repairs in place (the damaged index moved aside, a new one built in the
// background, status showing it), after which the serve answers searches again. Stopping serve,
// then the same command, rebuilds once more. Real processes, a real damaged file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEngine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { REPO } from '../helpers/cli.js';
import { start, type Proc } from '../helpers/processes.js';
import { cairn, FolderModel } from '../freshness/lib.js';
import { filesUnder } from '../helpers/files.js';

let folder: { dir: string; cleanup: () => Promise<void> };
let home: { dir: string; cleanup: () => Promise<void> };
let serve: Proc | null = null;

/** Every index file by path and content hash: what "nothing was written" is checked against. */
async function snapshot(index: string): Promise<string[]> {
  return Promise.all(
    (await filesUnder(index)).map(
      async (f) =>
        `${f.slice(index.length)} ${createHash('sha256')
          .update(await readFile(f))
          .digest('hex')}`,
    ),
  );
}

before(async () => {
  folder = await tempDir('rbs-folder');
  const model = new FolderModel(folder.dir);
  for (let i = 0; i < 20; i++) await model.add();
  home = await tempDir('rbs-home');
  const engine = await openEngine({ home: home.dir });
  engine.settings.set({ 'mcp.port': 0, 'watch.enabled': false });
  await engine.addFolder({ path: folder.dir });
  await indexNow(engine, folder.dir, 'create');
  await engine.runMaintenance();
  await engine.close();
});

after(async () => {
  await serve?.stop();
  await home?.cleanup();
  await folder?.cleanup();
});

test(
  'rebuild beside a running serve: through it when intact, refused on damage while the serve repairs in place',
  { timeout: 400_000 },
  async () => {
    serve = start(process.execPath, [join(REPO, 'bin', 'cairn.mjs'), 'serve'], { CAIRN_HOME: home.dir });
    await serve.waitFor(/MCP: http/);

    // Control: an intact index is rebuilt through the running engine (a second engine could not take the lock).
    const ok = cairn(['index', '--rebuild'], home.dir);
    assert.equal((await ok.exit).code, 0, `${ok.stdout()} ${ok.stderr()}`);
    assert.equal(serve.child.exitCode, null, 'serve stopped during the rebuild');

    const index = join(home.dir, 'index');
    // The serve's own maintenance after that rebuild (debounced, then compaction and pruning) must
    // be over first, or its writes would be taken for the refused rebuild's.
    for (let prev = await snapshot(index), i = 0; i < 30; i++) {
      await sleep(3000);
      const now = await snapshot(index);
      if (JSON.stringify(now) === JSON.stringify(prev)) break;
      prev = now;
    }
    for (const f of await filesUnder(join(index, 'chunks.lance', 'data')))
      await truncate(f, Math.floor((await stat(f)).size / 2));
    const damaged = await snapshot(index);

    const refused = cairn(['index', '--rebuild'], home.dir);
    const code = (await refused.exit).code;
    assert.equal(code, 3, `rebuild beside serve on damage exited ${code}: ${refused.stdout()} ${refused.stderr()}`);
    assert.match(refused.stderr() + refused.stdout(), /table chunks/);
    assert.match(refused.stderr() + refused.stdout(), /repairing it/);
    // The running engine repairs in place: status shows it until done; the damage went aside.
    type Repair = { state: string; moved_to: string | null } | null;
    let repair: Repair = null;
    for (let i = 0; i < 120; i++) {
      const st = cairn(['status', '--json'], home.dir);
      await st.exit;
      repair = (JSON.parse(st.stdout()) as { index_repair?: Repair }).index_repair ?? null;
      if (repair?.state === 'done' || repair?.state === 'failed') break;
      await sleep(1000);
    }
    assert.equal(repair?.state, 'done', JSON.stringify(repair));
    assert.ok(
      (await readdir(home.dir)).some((n) => n.startsWith('index.corrupt-')),
      'the damaged index was not moved aside',
    );
    assert.notDeepEqual(await snapshot(index), damaged);
    const served = cairn(['search', 'gardening weather', '--mode', 'sparse', '--json'], home.dir);
    assert.equal((await served.exit).code, 0, served.stdout() + served.stderr());
    assert.ok((JSON.parse(served.stdout()) as { hits: unknown[] }).hits.length > 0, served.stdout());

    assert.equal(await serve.stop(), 0);
    serve = null;
    const rebuilt = cairn(['index', '--rebuild'], home.dir);
    assert.equal((await rebuilt.exit).code, 0, `${rebuilt.stdout()} ${rebuilt.stderr()}`);
    const found = cairn(['search', 'gardening weather', '--mode', 'sparse', '--json'], home.dir);
    assert.equal((await found.exit).code, 0, found.stdout());
  },
);
