// On-disk damage, each kind followed by `status`, `search` and `index --rebuild` through the real
// CLI: the damage is named (index_corrupt, exit 3, the table in the message), never served as raw
// LanceDB text or as `fresh`, and the rebuild moves the damaged index aside and ends with an index
// equal by content (chunks, documents, files) to a from-scratch build of the same folder.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../main/engine/engine.js';
import { indexNow, tempDir } from '../helpers/engine.js';
import { cairn, FolderModel } from './lib.js';
import { filesUnder } from '../helpers/files.js';

let folder: { dir: string; cleanup: () => Promise<void> };
let reference: Content;

interface Content {
  chunks: string[];
  docs: string[];
  files: string[];
}

/** Everything a search can answer from, by value (no ids, no dates). */
async function content(home: string): Promise<Content> {
  const engine = await openEngine({ home });
  try {
    const byValue = <R extends object>(rows: R[], cols: (keyof R)[]) =>
      rows.map((r) => JSON.stringify(cols.map((c) => r[c]))).sort();
    return {
      chunks: byValue(await engine.store.storedRows('chunks', null), [
        'path',
        'start_line',
        'end_line',
        'page',
        'text',
        'search_text',
      ]),
      docs: byValue(await engine.store.storedRows('docs', null), ['path', 'text']),
      files: byValue(await engine.store.storedRows('files', null), ['path', 'hash', 'chunks', 'error_code']),
    };
  } finally {
    await engine.close();
  }
}

async function build(): Promise<string> {
  const home = await tempDir('dmg-home');
  const engine = await openEngine({ home: home.dir });
  await engine.addFolder({ path: folder.dir });
  await indexNow(engine, folder.dir, 'create');
  await engine.runMaintenance();
  await engine.close();
  return home.dir;
}

const DAMAGE: { kind: string; table: RegExp; apply: (index: string) => Promise<void> }[] = [
  {
    kind: 'a truncated chunks data file',
    table: /chunks/,
    apply: async (index) => {
      for (const f of await filesUnder(join(index, 'chunks.lance', 'data')))
        await truncate(f, Math.floor((await stat(f)).size / 2));
    },
  },
  {
    kind: 'a zeroed chunks data file',
    table: /chunks/,
    apply: async (index) => {
      for (const f of await filesUnder(join(index, 'chunks.lance', 'data')))
        await writeFile(f, Buffer.alloc((await stat(f)).size));
    },
  },
  {
    kind: 'an overwritten files table',
    table: /files/,
    apply: async (index) => {
      for (const f of await filesUnder(join(index, 'files.lance', 'data')))
        await writeFile(f, Buffer.alloc((await stat(f)).size, 0x5a));
    },
  },
  {
    kind: 'an overwritten graph table',
    table: /graph_nodes/,
    apply: async (index) => {
      for (const f of await filesUnder(join(index, 'graph_nodes.lance', 'data')))
        await writeFile(f, Buffer.alloc((await stat(f)).size, 0x33));
    },
  },
  {
    kind: 'truncated full-text index files',
    table: /chunks|docs/,
    apply: async (index) => {
      const files = await filesUnder(join(index, 'chunks.lance', '_indices'));
      assert.ok(files.length > 0, 'no index files to damage');
      for (const f of files) await truncate(f, Math.floor((await stat(f)).size / 3));
    },
  },
  {
    kind: 'a garbage contract.json',
    table: /contract/,
    apply: (index) => writeFile(join(index, 'contract.json'), '{"embedding_model": 12, garbage'),
  },
  {
    kind: 'a deleted files table',
    table: /files/,
    apply: (index) => rm(join(index, 'files.lance'), { recursive: true, force: true }),
  },
];

before(async () => {
  folder = await tempDir('dmg-folder');
  const model = new FolderModel(folder.dir);
  for (let i = 0; i < 30; i++) await model.add();
  const refHome = await build();
  reference = await content(refHome);
  await rm(refHome, { recursive: true, force: true });
  assert.ok(reference.chunks.length >= 30 && reference.files.length === 30);
});

after(async () => {
  await folder?.cleanup();
});

for (const d of DAMAGE) {
  test(
    `damage: ${d.kind} is named by status and search, and --rebuild ends equal to a fresh build`,
    { timeout: 300_000 },
    async () => {
      const home = await build();
      try {
        // Control: before the damage, status and search answer.
        const ok = cairn(['status', '--json'], home);
        assert.equal((await ok.exit).code, 0, ok.stderr());
        await d.apply(join(home, 'index'));

        const st = cairn(['status', '--json'], home);
        const stExit = await st.exit;
        const stBody = JSON.parse(st.stdout()) as { error?: { code: string; message: string } };
        assert.equal(stExit.code, 3, `status exit ${stExit.code}: ${st.stdout()} ${st.stderr()}`);
        assert.equal(stBody.error?.code, 'index_corrupt');
        assert.match(stBody.error?.message ?? '', d.table);

        const se = cairn(['search', 'gardening weather', '--mode', 'sparse', '--json'], home);
        assert.equal((await se.exit).code, 3, se.stdout());
        assert.equal((JSON.parse(se.stdout()) as { error?: { code: string } }).error?.code, 'index_corrupt');

        const rb = cairn(['index', '--rebuild'], home);
        const rbExit = await rb.exit;
        assert.equal(rbExit.code, 0, `rebuild exit ${rbExit.code}: ${rb.stdout()} ${rb.stderr()}`);
        assert.ok(
          (await readdir(home)).some((n) => n.startsWith('index.corrupt-')),
          'the damaged index was not moved aside',
        );

        const after = cairn(['status', '--json'], home);
        assert.equal((await after.exit).code, 0, after.stdout());
        const got = await content(home);
        assert.deepEqual(got.files, reference.files);
        assert.deepEqual(got.docs, reference.docs);
        assert.deepEqual(got.chunks, reference.chunks);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    },
  );
}
