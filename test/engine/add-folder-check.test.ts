// Adding a folder: `~` expanded as the README's examples use it; every refusal in plain words
// with what to do (relative, missing, a file, a FIFO, unreadable, the data folder), nothing saved.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/engine.js';
import { openEngine, type Engine } from '../../main/engine/engine.js';
import { CairnError } from '../../main/engine/errors.js';

let root: string;
let engine: Engine;
const oldHome = process.env.HOME;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const t = await tempDir('addcheck');
  cleanups.push(t.cleanup);
  root = t.dir;
  // os.homedir() follows $HOME: `~` is this temporary home.
  process.env.HOME = join(root, 'me');
  await mkdir(join(root, 'me', 'notes'), { recursive: true });
  await writeFile(join(root, 'me', 'notes', 'a.md'), '# a\n');
  await writeFile(join(root, 'me', 'file.txt'), 'not a folder\n');
  engine = await openEngine({ home: join(root, 'data') });
});

after(async () => {
  process.env.HOME = oldHome;
  await engine?.close();
  for (const c of cleanups.reverse()) await c();
});

async function refused(path: string, message: RegExp, remedy?: RegExp): Promise<void> {
  await assert.rejects(engine.addFolder({ path }), (err: unknown) => {
    assert.ok(err instanceof CairnError, String(err));
    assert.equal(err.code, 'invalid_argument');
    assert.match(err.message, message);
    if (remedy) assert.match(err.remedy ?? '', remedy);
    assert.equal(err.details?.key, 'path');
    return true;
  });
  assert.equal(engine.folderSpecs().length, 0, `nothing saved for ${path}`);
}

test('refusals say what is wrong and what to do, and save nothing', async () => {
  await refused('', /No folder was given/, /full path/);
  await refused('notes', /relative path/, new RegExp(`${join(root, 'me', 'notes')}`));
  await refused('~bob/notes', /another user's home folder/, /full path/);
  await refused(join(root, 'me', 'nothere'), /There is no folder at/, /Check the spelling .*exists/);
  await refused(
    join(root, 'me', 'file.txt'),
    /is a file, not a folder/,
    /Add the folder it is in .*include glob file\.txt/,
  );
  await refused(join(root, 'me', 'file.txt', 'x'), /part of that path is a file/);
  execFileSync('mkfifo', [join(root, 'me', 'pipe')]);
  await refused(join(root, 'me', 'pipe'), /is a FIFO \(named pipe\), not a folder/);
  await refused(join(root, 'data'), /Cairn's data folder/);
});

test('an unreadable folder is refused before it is saved (as another user: root reads everything)', async (t) => {
  const locked = join(root, 'me', 'locked');
  await mkdir(locked);
  await chmod(locked, 0o000);
  if (process.getuid?.() === 0) {
    // Root is never denied; run the check as nobody through setpriv when it is there (the folders
    // above are opened to it, so it is this folder's own mode that refuses).
    await chmod(root, 0o755);
    await chmod(join(root, 'me'), 0o755);
    let out: string;
    try {
      out = execFileSync(
        'setpriv',
        [
          '--reuid=65534',
          '--regid=65534',
          '--clear-groups',
          process.execPath,
          '--import',
          'tsx',
          '-e',
          `
        import('${join(process.cwd(), 'main/engine/folders/check.ts')}').then(async (m) => {
          try { await m.checkNewFolder(${JSON.stringify(locked)}, { home: ${JSON.stringify(join(root, 'me'))} }); console.log('accepted'); }
          catch (e) { console.log(e.message); }
        });`,
        ],
        { cwd: process.cwd(), encoding: 'utf8', env: { ...process.env, HOME: '/tmp' } },
      );
    } catch (err) {
      t.skip(`setpriv could not run the check as another user: ${(err as Error).message.split('\n')[0]}`);
      return;
    }
    assert.match(out, /cannot read the folder .*locked \(permission denied\)/);
    assert.doesNotMatch(out, /accepted/);
    return;
  }
  await refused(locked, /cannot read the folder .* \(permission denied\)/, /chmod u\+rx/);
});

test('~ and ~/notes are your home folder (the README writes cairn add ~/notes)', async () => {
  const st = await engine.addFolder({ path: '~/notes' });
  assert.equal(st.path, join(root, 'me', 'notes'));
  await engine.removeFolder(st.path);
  const trailing = await engine.addFolder({ path: `${join(root, 'me', 'notes')}/` });
  assert.equal(trailing.path, join(root, 'me', 'notes'), 'a trailing slash is the same folder');
});
