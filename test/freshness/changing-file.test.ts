// A file that changes while it is being read. Whatever the interleaving, the index must never hold
// a hash of one version with chunks of another, nor a torn mix, and once writes stop it must hold
// the last version: by a re-read within the same job (no watcher), or by the watcher (serving).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { tempDir } from '../helpers/engine.js';
import { eventually } from './lib.js';

/** Version k of the changing file: its token k on every line, and a length of its own. */
const version = (k: number) => `${`changing marker cfv${k}k line\n`.repeat(40 + (k % 7) * 13)}end cfv${k}k\n`;
const tokensIn = (text: string) => new Set(text.match(/cfv\d+k/g) ?? []);

async function found(engine: Engine, tok: string): Promise<string[]> {
  return [...new Set((await engine.search({ query: tok, mode: 'sparse', top_k: 20 })).hits.map((h) => h.path))];
}

/** What the index holds for one path: its row's hash, and every chunk's file hash and tokens. */
async function stored(engine: Engine, path: string) {
  const [row] = await engine.store.storedRows('files', [path]);
  const chunks = (await engine.store.storedRows('chunks', [path])).map((c) => ({
    file_hash: c.file_hash,
    text: c.text,
  }));
  return { row, chunks };
}

/** The invariant at any moment: chunks and hash of exactly one whole version. */
function assertOneVersion(s: Awaited<ReturnType<typeof stored>>, versions: Map<string, number>): number {
  assert.ok(s.row, 'no row for the changing file');
  const k = versions.get(s.row.hash);
  assert.ok(k !== undefined, `the stored hash is of no version written (a torn read): ${s.row.hash}`);
  assert.ok(s.chunks.length > 0);
  for (const c of s.chunks) {
    assert.equal(c.file_hash, s.row.hash, 'chunks of another version than the row');
    assert.deepEqual([...tokensIn(c.text)], [`cfv${k}k`], 'a chunk mixes versions');
  }
  return k;
}

async function folderWithChangingFile(others: number) {
  const home = await tempDir('changing-home');
  const folder = await tempDir('changing-folder');
  // First in the walk's name order, so it is read early and many files are parsed after it.
  const path = join(folder.dir, 'a-changing.txt');
  await writeFile(path, version(0));
  await mkdir(join(folder.dir, 'z'));
  for (let i = 0; i < others; i++)
    await writeFile(join(folder.dir, 'z', `other${i}.md`), `# Other ${i}\n\nsteady text number ${i} about rivers.\n`);
  const engine = await openEngine({ home: home.dir });
  // Text only (this hub id is not available offline): vectors play no part here.
  engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
  await engine.addFolder({ path: folder.dir });
  return {
    engine,
    path,
    folder: folder.dir,
    cleanup: async () => (await engine.close(), await home.cleanup(), await folder.cleanup()),
  };
}

test(
  'a file rewritten while a job reads it ends as its last version in that same job, never torn',
  { timeout: 300_000 },
  async () => {
    const { engine, path, folder, cleanup } = await folderWithChangingFile(1500);
    const versions = new Map<string, number>([[createHash('sha1').update(version(0)).digest('hex'), 0]]);
    try {
      const { id } = await engine.indexFolder(folder, 'create');
      // Rewrite it as fast as possible until the job has read it, then once more, then stop.
      let k = 0;
      while (engine.job(id)!.progress.files_done === 0 && !engine.job(id)!.finished_at) {
        k++;
        versions.set(createHash('sha1').update(version(k)).digest('hex'), k);
        await writeFile(path, version(k));
      }
      // A length of its own too, so the change shows in the size even within one mtime tick.
      const last = k + 1;
      versions.set(createHash('sha1').update(version(last)).digest('hex'), last);
      await writeFile(path, version(last));
      await engine.idle();
      assert.equal(engine.job(id)!.state, 'done', JSON.stringify(engine.job(id)));

      // No watcher, no second job: the re-read after the batch picked up the last version.
      assert.equal(
        assertOneVersion(await stored(engine, path), versions),
        last,
        `${k} rewrites; the index holds an older version`,
      );
      assert.deepEqual(await found(engine, `cfv${last}k`), [path]);
      for (const old of [0, k]) assert.deepEqual(await found(engine, `cfv${old}k`), [], `version ${old} still answers`);
      const [st] = await engine.folders();
      assert.equal(st.state, 'fresh');
      assert.equal(st.files, 1501);
    } finally {
      await cleanup();
    }
  },
);

test(
  'while serving, a burst of rewrites during indexing settles on the last version',
  { timeout: 300_000 },
  async () => {
    const { engine, path, cleanup } = await folderWithChangingFile(400);
    const versions = new Map<string, number>();
    try {
      await engine.startLiveUpdates();
      let k = 0;
      // The start's reconcile is indexing the folder meanwhile: every read races these writes.
      for (; k < 150; k++) {
        versions.set(createHash('sha1').update(version(k)).digest('hex'), k);
        await writeFile(path, version(k));
      }
      const last = k - 1;
      await eventually(
        'the last version, fresh',
        async () => {
          const hits = await engine.search({ query: `cfv${last}k`, mode: 'sparse', freshness: 'wait_for_fresh' });
          const [st] = await engine.folders();
          return hits.hits.length > 0 && st.state === 'fresh' ? true : undefined;
        },
        120_000,
        250,
      );
      assert.equal(assertOneVersion(await stored(engine, path), versions), last);
      for (const old of [0, 75, last - 1])
        assert.deepEqual(await found(engine, `cfv${old}k`), [], `version ${old} still answers`);
      assert.equal((await engine.folders())[0].files, 401);
    } finally {
      await cleanup();
    }
  },
);
