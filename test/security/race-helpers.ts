/**
 * A symlink flipper for the race tests: another process (another uid when the tests run as root,
 * as the attacker of issue 12 was: a local user with write access to a shared folder) swaps
 * `<folder>/link` between an inside directory and one outside the folder as fast as it can.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const NOBODY = 65534;

export interface RaceTree {
  root: string;
  folder: string;
  /** `<folder>/link/secret.txt`: inside or outside depending on the moment. */
  target: string;
  outsideToken: string;
  insideToken: string;
}

/** root/outside/secret.txt (0600, owned by whoever runs the tests), root/folder/real/secret.txt, root/folder/link → real. */
export async function raceTree(root: string): Promise<RaceTree> {
  const outsideToken = `OUTSIDESECRET${randomBytes(6).toString('hex')}`;
  const insideToken = `INSIDEMARK${randomBytes(6).toString('hex')}`;
  const folder = join(root, 'folder');
  await mkdir(join(root, 'outside'), { recursive: true });
  await mkdir(join(folder, 'real'), { recursive: true });
  await writeFile(join(root, 'outside', 'secret.txt'), `${outsideToken} root only\n`, { mode: 0o600 });
  await chmod(join(root, 'outside', 'secret.txt'), 0o600);
  await writeFile(join(folder, 'real', 'secret.txt'), `${insideToken} fine to serve\n`);
  await symlink('real', join(folder, 'link'));
  // The attacker may write in the shared folder, and only there.
  await chmod(root, 0o755);
  await chmod(folder, 0o777);
  return { root, folder, target: join(folder, 'link', 'secret.txt'), outsideToken, insideToken };
}

const FLIPPER = `
const fs = require('fs'), path = require('path');
const dir = process.argv[1];
const tmp = path.join(dir, '.flip');
const link = path.join(dir, 'link');
const targets = ['real', '../outside'];
let n = 0;
process.stdout.write('ready ' + process.getuid() + '\\n');
for (;;) {
  try { fs.unlinkSync(tmp); } catch {}
  fs.symlinkSync(targets[n & 1], tmp);
  fs.renameSync(tmp, link);
  n++;
}
`;

/** Starts flipping; resolves once the flipper runs, with its uid and a stop function. */
export async function startFlipper(folder: string): Promise<{ uid: number; stop: () => Promise<void> }> {
  const asRoot = process.getuid?.() === 0;
  const cmd = asRoot ? 'setpriv' : process.execPath;
  const args = asRoot
    ? ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', process.execPath, '-e', FLIPPER, folder]
    : ['-e', FLIPPER, folder];
  const child: ChildProcess = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const uid = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`flipper exited ${code}`)));
    child.stdout?.once('data', (d: Buffer) => resolve(Number(String(d).split(' ')[1])));
  });
  child.removeAllListeners('exit');
  return {
    uid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
