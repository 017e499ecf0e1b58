// Permission changes while the engine serves: a file (or a folder) chmod-ed to 000 becomes a
// per-file error and its old chunks stop answering (the person locked it away, and we can no longer
// vouch for what it holds); restoring the permission brings it back. CI runs as root, for whom chmod 000 stops no read,
// so the serving engine runs as `nobody` (uid 65534), as in the unreadable-file test of faults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, chown, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchResponse } from '../../main/common/search.js';
import type { EngineStatus, FolderStatus } from '../../main/common/status.js';
import { openEngine } from '../../main/engine/engine.js';
import { tempDir } from '../helpers/engine.js';
import { eventually, FolderModel, REPO, token } from './lib.js';

const NOBODY = 65534;
const TOKEN = 'permissions-admin-token-0123456789abcdef';

test(
  'a file or folder made unreadable while serving becomes a per-file error and stops answering; the folder root unreadable puts the folder in error and drops nothing; readable again, all is back',
  { timeout: 300_000 },
  async () => {
    const home = await tempDir('perm-live-home');
    const folder = await tempDir('perm-live-folder');
    const model = new FolderModel(folder.dir);
    for (let i = 0; i < 4; i++) await model.add();
    const [lockedRel] = [...model.files.keys()];
    const locked = model.abs(lockedRel);
    const lockedTok = token(model.files.get(lockedRel)!.id, 0);
    const other = [...model.files].slice(1).map(([rel, f]) => [model.abs(rel), token(f.id, f.version)] as const);

    const setup = await openEngine({ home: home.dir });
    await setup.addFolder({ path: folder.dir });
    // Text only, and the unprivileged engine must not build a model (this hub id is not available offline).
    setup.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
    await setup.close();
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      for (const d of [
        folder.dir,
        join(folder.dir, 'docs'),
        join(folder.dir, 'src'),
        join(folder.dir, 'lib'),
        join(folder.dir, 'lib/util'),
      ])
        await chmod(d, 0o755).catch(() => undefined);
      for (const f of ['', ...(await readdir(home.dir, { recursive: true }))])
        await chown(join(home.dir, f), NOBODY, NOBODY);
    }
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(REPO, 'main/engine/cli/main.ts'), 'serve', '--port', '0'],
      {
        cwd: REPO,
        env: { ...process.env, CAIRN_HOME: home.dir, HOME: tmpdir(), LANCEDB_LOG: 'error', CAIRN_ADMIN_TOKEN: TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    try {
      const base = (
        await eventually(
          'the serve banner',
          async () => /Workbench: (http:\/\/[^/\s#]+)/.exec(out) ?? undefined,
          60_000,
        )
      )[1];
      const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const res = await fetch(base + path, {
          method,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        assert.equal(res.status, 200, `${path}: ${res.status}`);
        return (await res.json()) as T;
      };
      const found = async (tok: string) => [
        ...new Set(
          (
            await api<SearchResponse>('POST', '/api/search', {
              query: tok,
              mode: 'sparse',
              top_k: 20,
              freshness: 'wait_for_fresh',
            })
          ).hits.map((h) => h.path),
        ),
      ];
      const status = async (): Promise<FolderStatus> => (await api<EngineStatus>('GET', '/api/status')).folders[0];

      await eventually(
        'the first index',
        async () => ((await status()).state === 'fresh' && (await found(lockedTok)).length === 1 ? true : undefined),
        120_000,
        250,
      );
      assert.deepEqual(await found(lockedTok), [locked]);

      await chmod(locked, 0o000);
      const st = await eventually(
        'the locked file as a per-file error',
        async () => {
          const s = await status();
          return s.file_errors === 1 && s.state === 'fresh' ? s : undefined;
        },
        60_000,
        100,
      );
      assert.deepEqual(
        st.errors.map((e) => [e.path, e.code]),
        [[locked, 'forbidden']],
      );
      assert.match(st.errors[0].message, /permission denied/);
      assert.equal(st.files, other.length);
      assert.deepEqual(await found(lockedTok), [], 'an unreadable file still answers with its old text');
      for (const [path, tok] of other) assert.deepEqual(await found(tok), [path]);

      await chmod(locked, 0o644);
      await eventually(
        'the file back once readable',
        async () => ((await found(lockedTok)).length === 1 ? true : undefined),
        60_000,
        100,
      );
      const back = await status();
      assert.equal(back.file_errors, 0, JSON.stringify(back.errors));
      assert.equal(back.files, model.files.size);
      assert.equal(back.state, 'fresh');

      // A whole folder locked: one error for it, none of its files answer, and all come back.
      const dir = join(folder.dir, 'docs');
      const inside = other.filter(([p]) => p.startsWith(dir + '/'));
      const outside = other.filter(([p]) => !p.startsWith(dir + '/'));
      assert.ok(inside.length > 0 && outside.length > 0);
      await chmod(dir, 0o000);
      const dst = await eventually(
        'the locked folder as an error',
        async () => {
          const s = await status();
          return s.file_errors === 1 && s.state === 'fresh' ? s : undefined;
        },
        60_000,
        100,
      );
      assert.deepEqual(
        dst.errors.map((e) => [e.path, e.code]),
        [[dir, 'forbidden']],
      );
      assert.equal(dst.files, outside.length);
      for (const [, tok] of [...inside, [locked, lockedTok] as const])
        assert.deepEqual(await found(tok), [], `${tok} answers from a locked folder`);
      for (const [path, tok] of outside) assert.deepEqual(await found(tok), [path]);
      await chmod(dir, 0o755);
      await eventually(
        'the folder back once readable',
        async () => {
          const s = await status();
          return s.file_errors === 0 && s.files === model.files.size ? true : undefined;
        },
        60_000,
        100,
      );
      for (const [path, tok] of [...other, [locked, lockedTok] as const]) assert.deepEqual(await found(tok), [path]);

      // The folder itself locked: the folder is in error naming it and why, nothing of its index is
      // dropped (every file is still counted: re-reading and re-embedding a whole folder is the loss
      // to avoid), and once readable again it is fresh with every file.
      await chmod(folder.dir, 0o000);
      const rst = await eventually(
        "the locked root as the folder's error",
        async () => {
          const s = await status();
          return s.state === 'error' ? s : undefined;
        },
        60_000,
        100,
      );
      assert.ok(rst.reason?.includes(folder.dir), JSON.stringify(rst));
      assert.match(rst.reason ?? '', /permission denied/i);
      assert.equal(rst.files, model.files.size, "the locked folder's index was dropped");
      await chmod(folder.dir, 0o755);
      await eventually(
        'the folder fresh again once readable',
        async () => {
          const s = await status();
          return s.state === 'fresh' && s.file_errors === 0 && s.files === model.files.size ? true : undefined;
        },
        60_000,
        100,
      );
      for (const [path, tok] of [...other, [locked, lockedTok] as const]) assert.deepEqual(await found(tok), [path]);
      assert.equal(child.exitCode, null, `the engine exited: ${err}`);
    } finally {
      child.kill('SIGTERM');
      await exited;
      await chmod(locked, 0o644).catch(() => undefined);
      await chmod(join(folder.dir, 'docs'), 0o755).catch(() => undefined);
      await chmod(folder.dir, 0o755).catch(() => undefined);
      await home.cleanup();
      await folder.cleanup();
    }
  },
);
