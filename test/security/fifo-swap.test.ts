// Issue 12, cause 7: a FIFO swapped in under the watcher. The old read opened the path blocking
// (the probe did not), so a file replaced by a FIFO between probe and read parked a thread in
// open() for good: the folder stayed "indexing", later edits were never indexed, SIGTERM no longer
// stopped the engine. The door opens O_NONBLOCK and refuses what is not a regular file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderStatus } from '../../main/common/status.js';
import type { SearchResponse } from '../../main/common/search.js';
import { fallbackCount, readAndParse } from '../../main/engine/ingest/parse-task.js';
import { tempDir } from '../helpers/engine.js';
import { cairn, eventually, sleep, type Cli } from '../freshness/lib.js';

const TOKEN = 'fifo-swap-admin-token-0123456789abcdef';
let home: { dir: string; cleanup: () => Promise<void> };
let folder: { dir: string; cleanup: () => Promise<void> };
let server: Cli | null = null;

before(async () => {
  home = await tempDir('fifo-home');
  folder = await tempDir('fifo-folder');
});

after(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await server.exit;
  }
  await home?.cleanup();
  await folder?.cleanup();
});

const mkfifo = (p: string) => execFileSync('mkfifo', [p]);

test(
  "the indexer's read of a path that became a FIFO returns that file's error at once, never blocks",
  { timeout: 30_000 },
  async () => {
    // Both reads: the thread pool's (main thread) and the synchronous one of the parse workers,
    // where a blocking open would park the thread for good.
    for (const syncRead of [false, true]) await fifoThenFile(syncRead);
  },
);

async function fifoThenFile(syncRead: boolean): Promise<void> {
  const p = join(folder.dir, 'was-a-file.md');
  const parse = (st: { size: number; mtimeMs: number }) =>
    readAndParse(
      {
        folder: folder.dir,
        src: { path: p, rel: 'was-a-file.md', size: st.size, mtimeMs: st.mtimeMs },
        rebuild: false,
        access: {
          spec: { path: folder.dir },
          opts: { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] },
          epoch: 0,
        },
      },
      { maxTokens: 256, countTokens: fallbackCount },
      undefined,
      syncRead,
    );
  await writeFile(p, '# A file\n');
  const st = await stat(p);
  // The walk saw a regular file; now it is a FIFO with no writer (a blocking open would never return).
  await rm(p);
  mkfifo(p);
  const rows = await parse(st);
  assert.notEqual(rows, 'unchanged');
  if (rows === 'unchanged') return;
  assert.equal(rows.chunks.length, 0);
  assert.equal(rows.file.error_code, 'invalid_argument');
  assert.match(rows.file.error_message, /not a regular file/);
  await rm(p);
  // Control: a regular file at the same path parses.
  await writeFile(p, '# A file\n\nwith words\n');
  const ok = await parse(await stat(p));
  assert.ok(ok !== 'unchanged' && ok.chunks.length > 0);
  await rm(p);
}

test(
  'FIFOs swapped in under the watcher: the folder returns to fresh, later edits are indexed, SIGTERM stops serve',
  { timeout: 240_000 },
  async () => {
    await writeFile(join(folder.dir, 'steady.md'), '# Steady\n\nThe lantern keeper logs the tide.\n');
    server = cairn(['serve', '--port', '0'], home.dir, { CAIRN_ADMIN_TOKEN: TOKEN });
    const banner = await eventually(
      'the serve banner',
      async () => /Workbench: (http:\/\/[^/\s#]+)/.exec(server!.stdout()) ?? undefined,
      60_000,
    );
    const base = banner[1];
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as T;
    };
    const state = async () =>
      (await api<FolderStatus[]>('GET', '/api/folders')).find((f) => f.path === folder.dir)?.state;
    const found = async (q: string) =>
      (await api<SearchResponse>('POST', '/api/search', { query: q, mode: 'sparse', top_k: 5 })).hits.length > 0;
    await api('POST', '/api/folders', { path: folder.dir });
    await eventually('the first index', async () => ((await found('lantern keeper')) ? true : undefined), 120_000, 250);
    // Files that exist for a moment and are then replaced by FIFOs, at varied delays, so some swaps
    // land between the watcher's probe and the read.
    for (let i = 0; i < 40; i++) {
      const p = join(folder.dir, `swap-${i}.md`);
      await writeFile(p, `# Swap ${i}\n\ncontent ${i}\n`);
      await sleep(i % 8 === 0 ? 0 : (i * 37) % 300);
      await rm(p);
      mkfifo(p);
    }
    await eventually(
      'the folder fresh again',
      async () => ((await state()) === 'fresh' ? true : undefined),
      60_000,
      200,
    );
    await writeFile(join(folder.dir, 'later.md'), '# Later\n\nThe heron returns to the weir at dusk.\n');
    await eventually('a later edit indexed', async () => ((await found('heron weir')) ? true : undefined), 60_000, 200);
    await eventually(
      'the folder fresh after the edit',
      async () => ((await state()) === 'fresh' ? true : undefined),
      60_000,
      200,
    );
    server.child.kill('SIGTERM');
    const exited = await Promise.race([server.exit, sleep(30_000).then(() => null)]);
    assert.ok(exited, 'serve did not stop on SIGTERM');
    assert.equal(exited.code, 0, server.stderr());
  },
);
