import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WalkItem } from '../../main/engine/sources/index.js';
import { writeTree } from './walk-helpers.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const child = fileURLToPath(new URL('./unreadable-child.ts', import.meta.url));
/** `nobody`: as root, chmod 000 does not stop reads, so the walk runs as this user instead. */
const NOBODY = 65534;

test('unreadable files and directories are yielded as errors and the walk goes on', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-unreadable-'));
  try {
    await writeTree(dir, { 'a.txt': 'a', 'locked.txt': 'no', 'closed/inner.txt': 'no', 'z.txt': 'z' });
    await chmod(join(dir, 'locked.txt'), 0o000);
    await chmod(join(dir, 'closed'), 0o000);
    // mkdtemp makes the folder 0700; the unprivileged walker must be able to enter it.
    await chmod(dir, 0o755);
    const asRoot = process.getuid?.() === 0;
    const r = spawnSync(process.execPath, ['--import', 'tsx', child, dir], {
      cwd: repo,
      encoding: 'utf8',
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
      env: { ...process.env, HOME: tmpdir() },
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
      uid: number;
      items: WalkItem[];
      readError: { code: string; message: string };
    };
    assert.notEqual(out.uid, 0, 'the check must run unprivileged to mean anything');
    const files = out.items.flatMap((i) => ('file' in i ? [i.file.rel] : []));
    const errors = out.items.flatMap((i) => ('error' in i ? [i.error] : []));
    assert.deepEqual(files, ['a.txt', 'z.txt']);
    assert.deepEqual(
      errors.map((e) => [e.path.slice(dir.length + 1), e.code]),
      [
        ['closed', 'forbidden'],
        ['locked.txt', 'forbidden'],
      ],
    );
    assert.match(errors[1].message, /permission denied/);
    assert.equal(out.readError.code, 'forbidden');
    assert.match(out.readError.message, /locked\.txt/);
  } finally {
    await chmod(join(dir, 'closed'), 0o755).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
});
