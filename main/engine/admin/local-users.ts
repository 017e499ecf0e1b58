/**
 * Other people who can log in to this machine. With the MCP key off, any local account (and any
 * process of theirs) can reach every indexed file over loopback, so the workbench warns when
 * there are such accounts. Read from /etc/passwd: regular accounts (uid 1000 and up, not
 * `nobody`) with a login shell, other than the one running Cairn. POSIX only; elsewhere none are
 * reported (Windows and macOS account lists need OS calls this plain-Node engine does not make).
 */
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';

const NO_LOGIN = /(\/nologin|\/false|\/sync|\/shutdown|\/halt)$/;

/** Parses passwd(5) lines; `self` is the uid to leave out. */
export function loginUsersIn(passwd: string, self: number): string[] {
  const names: string[] = [];
  for (const line of passwd.split('\n')) {
    const f = line.split(':');
    if (f.length < 7 || line.startsWith('#')) continue;
    const uid = Number(f[2]);
    const shell = f[6].trim();
    if (!Number.isInteger(uid) || uid < 1000 || uid === 65534 || uid === self) continue;
    if (!shell || NO_LOGIN.test(shell)) continue;
    names.push(f[0]);
  }
  return names;
}

let cached: { at: number; names: string[] } | null = null;

/** Other login accounts on this machine (cached for a minute: status is polled). */
export async function otherLoginUsers(passwdFile = '/etc/passwd'): Promise<string[]> {
  if (process.platform === 'win32') return [];
  if (cached && Date.now() - cached.at < 60_000 && passwdFile === '/etc/passwd') return cached.names;
  const self = process.getuid ? process.getuid() : userInfo().uid;
  const names = loginUsersIn(await readFile(passwdFile, 'utf8').catch(() => ''), self);
  if (passwdFile === '/etc/passwd') cached = { at: Date.now(), names };
  return names;
}
