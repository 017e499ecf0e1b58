// Watch health is apart from index health (issue 14): a folder whose watch keeps failing stays in
// error instead of cycling error -> indexing -> fresh with each retry, and comes back once it can
// be watched. One cached filter serves the watcher and the indexer's watcher updates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, chown, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openEngine } from '../../main/engine/engine.js';
import { FolderStates } from '../../main/engine/folders/states.js';
import { IndexStore } from '../../main/engine/index/store.js';
import { JobQueue } from '../../main/engine/jobs/queue.js';
import { FilterCache } from '../../main/engine/sources/filter-cache.js';
import { FolderChanges } from '../../main/engine/watch/changes.js';
import { tempDir } from '../helpers/engine.js';
import { eventually, REPO } from './lib.js';

test('a successful sync clears the index failure, never the watch error', async () => {
  const home = await tempDir('watch-health-unit');
  const store = await IndexStore.open(join(home.dir, 'index'));
  try {
    const changes = new FolderChanges({ debounceMs: () => 10, apply: () => null });
    const states = new FolderStates(store, new JobQueue(), changes);
    const folder = '/srv/docs';
    await store.recount(folder);
    // What FolderSync does after a full sync that succeeded.
    const synced = () => {
      states.setFailure(folder, null);
      states.markSynced(folder);
    };
    // Control: with no watch error the same sync leaves the folder fresh.
    synced();
    assert.equal(states.freshness(folder).state, 'fresh');
    changes.setWatchError(folder, 'the folder cannot be watched: EACCES');
    assert.equal(states.freshness(folder).state, 'error');
    synced();
    assert.equal(states.freshness(folder).state, 'error');
    const st = states.status({ path: folder });
    assert.equal(st.watch_error, 'the folder cannot be watched: EACCES');
    assert.equal(st.reason, 'the folder cannot be watched: EACCES');
    // An index failure is named first; clearing it leaves the watch error.
    states.setFailure(folder, 'disk full');
    assert.equal(states.status({ path: folder }).reason, 'disk full');
    synced();
    assert.equal(states.status({ path: folder }).reason, 'the folder cannot be watched: EACCES');
    changes.setWatchError(folder, null);
    assert.equal(states.freshness(folder).state, 'fresh');
    assert.equal(states.status({ path: folder }).watch_error, undefined);
    changes.close();
  } finally {
    await store.close();
    await home.cleanup();
  }
});

test('the cached filter reads ignore files once, until the watcher says one changed', async () => {
  const folder = await tempDir('watch-health-filter');
  try {
    await writeFile(join(folder.dir, '.gitignore'), 'a.log\n');
    const filters = new FilterCache(() => ({ respectGitignore: true, extraExcludes: [] }));
    const spec = { path: folder.dir };
    const filter = filters.get(spec);
    assert.equal(filter.accepts('a.log', false), false);
    assert.equal(filter.accepts('b.log', false), true);
    assert.equal(filters.get(spec), filter, 'the same filter for the same rules');
    await writeFile(join(folder.dir, '.gitignore'), 'b.log\n');
    // Not read again per path: the cached rules still answer...
    assert.equal(filters.get(spec).accepts('b.log', false), true);
    // ...until an ignore-file event invalidates them.
    filters.invalidate(folder.dir);
    assert.equal(filters.get(spec).accepts('b.log', false), false);
    assert.equal(filters.get(spec).accepts('a.log', false), true);
    // Other rules for the folder make another filter.
    const narrower = filters.get({ path: folder.dir, exclude: ['*.md'] });
    assert.notEqual(narrower, filter);
    assert.equal(narrower.accepts('x.md', false), false);
  } finally {
    await folder.cleanup();
  }
});

const NOBODY = 65534;
const RETRY_MS = 100;

test(
  'a folder that cannot be watched stays in error without rescanning at each retry, and recovers',
  { timeout: 300_000, skip: process.getuid?.() !== 0 ? 'needs root to run the engine as an unprivileged user' : false },
  async () => {
    const home = await tempDir('watch-health-home');
    const folder = await tempDir('watch-health-folder');
    try {
      for (let i = 0; i < 3; i++)
        await writeFile(join(folder.dir, `note${i}.md`), `# Note ${i}\n\nwatch health qzwatch${i}\n`);
      const setup = await openEngine({ home: home.dir });
      await setup.addFolder({ path: folder.dir });
      // No vectors needed; the child must not build a model (the hub address refuses at once).
      setup.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
      await setup.close();
      await chmod(home.dir, 0o755);
      for (const f of ['', ...(await readdir(home.dir, { recursive: true }))])
        await chown(join(home.dir, f), NOBODY, NOBODY);
      await mkdir(join(home.dir, 'cache'), { recursive: true });
      await chown(join(home.dir, 'cache'), NOBODY, NOBODY);
      // Root-owned and closed to others: the unprivileged engine can see that it is a folder and
      // can neither subscribe to it nor read it.
      await chmod(folder.dir, 0o700);

      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(REPO, 'test/freshness/watch-health-child.ts'), home.dir, String(RETRY_MS)],
        {
          cwd: REPO,
          uid: NOBODY,
          gid: NOBODY,
          env: {
            ...process.env,
            HOME: home.dir,
            XDG_CACHE_HOME: join(home.dir, 'cache'),
            HF_ENDPOINT: 'http://127.0.0.1:9/',
            LANCEDB_LOG: 'error',
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      type Look = { state: string; reason: string | null; watch_error: string | null; jobs: number };
      const looks: Look[] = [];
      createInterface({ input: child.stdout }).on('line', (l) => looks.push(JSON.parse(l) as Look));
      const exited = new Promise((r) => child.once('exit', r));
      try {
        // The start-up reconcile runs once and fails too (the folder cannot be read): error.
        const first = await eventually(
          'the folder in error after its start-up reconcile',
          async () => {
            const last = looks.at(-1);
            return last && last.state === 'error' && last.watch_error && looks.some((l) => l.jobs > 0)
              ? looks.length
              : undefined;
          },
          120_000,
          50,
        );
        const jobs = looks[first - 1].jobs;
        // Many retry periods: each retry fails to subscribe again. The failed sync itself is tried
        // again with its own backoff (2 s, then 4 s: a full disk), never once per watch retry.
        await eventually(
          '40 retry periods of looks',
          async () => (looks.length >= first + (40 * RETRY_MS) / 50 ? true : undefined),
          120_000,
          50,
        );
        const after = looks.slice(first);
        assert.ok(
          !after.some((l) => l.state === 'fresh'),
          `never fresh while the watch fails: ${[...new Set(after.map((l) => l.state))].join(', ')}`,
        );
        const newJobs = after.at(-1)!.jobs - jobs;
        assert.ok(newJobs <= 2, `no rescan per watch retry: ${newJobs} jobs in ${after.length} looks`);
        assert.ok(
          after.every((l) => l.watch_error !== null),
          'the watch error stays',
        );

        // Control: once it can be watched, a retry subscribes, reconciles and the folder is fresh.
        await chmod(folder.dir, 0o755);
        await eventually(
          'the folder fresh once it can be watched',
          async () => {
            const last = looks.at(-1);
            return last && last.state === 'fresh' && last.watch_error === null && last.reason === null
              ? true
              : undefined;
          },
          120_000,
          50,
        );
      } finally {
        child.stdin.end();
        await exited;
      }
      assert.equal(stderr.includes('Error'), false, stderr);
    } finally {
      await chmod(folder.dir, 0o755).catch(() => undefined);
      await folder.cleanup();
      await home.cleanup();
    }
  },
);
