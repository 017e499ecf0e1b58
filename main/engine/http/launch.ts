/**
 * The admin token of `cairn serve` (and of the engine under the desktop app): who may use `/api`.
 * Like Jupyter's runtime files, it is kept in a file only this user can read (`admin-token`, mode
 * 0600, in the 0700 data folder), so it survives restarts of the same data folder (an open
 * workbench and the CLI keep working) and never has to be printed where logs capture it.
 */
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { CairnError } from '../errors.js';
import { writeFileAtomic } from '../kernel/atomic-write.js';

const MIN_LENGTH = 16;
/** What Cairn generates: 32 random bytes in base64url. */
const GENERATED = /^[A-Za-z0-9_-]{43}$/;

/** Only this user may read it: a token another account could read is replaced, not reused. */
async function privateToken(file: string): Promise<string | null> {
  try {
    const st = await stat(file);
    if (
      !st.isFile() ||
      (process.platform !== 'win32' && ((st.mode & 0o077) !== 0 || (process.getuid && st.uid !== process.getuid())))
    )
      return null;
    const token = (await readFile(file, 'utf8')).trim();
    return GENERATED.test(token) ? token : null;
  } catch {
    return null;
  }
}

function writePrivate(file: string, token: string): Promise<void> {
  return writeFileAtomic(file, `${token}\n`, { mode: 0o600 });
}

/** `CAIRN_ADMIN_TOKEN` if set; a short one is refused (it would be guessable). */
export function adminTokenFromEnv(env: NodeJS.ProcessEnv = process.env): string | null {
  const given = env.CAIRN_ADMIN_TOKEN?.trim();
  if (!given) return null;
  if (given.length < MIN_LENGTH)
    throw new CairnError('config_invalid', `CAIRN_ADMIN_TOKEN must be at least ${MIN_LENGTH} characters.`);
  return given;
}

/**
 * `CAIRN_ADMIN_TOKEN` (for scripts and the desktop shell) if set, else the token kept in `file`,
 * else a fresh one. Whichever it is, `file` holds it afterwards, for the CLI to find.
 */
export async function adminTokenFor(file: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const given = adminTokenFromEnv(env);
  const token = given || (await privateToken(file)) || randomBytes(32).toString('base64url');
  if ((await readFile(file, 'utf8').catch(() => '')).trim() !== token || (await privateToken(file)) === null)
    await writePrivate(file, token);
  return token;
}

/** The token a running engine keeps for this data folder, or null (none, or readable by others). */
export async function readAdminToken(file: string): Promise<string | null> {
  try {
    const st = await stat(file);
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) return null;
    return (await readFile(file, 'utf8')).trim() || null;
  } catch {
    return null;
  }
}

/**
 * The workbench address with the token in the fragment: a fragment never reaches a server or a
 * log, and the workbench moves it to sessionStorage and strips it from the address bar.
 */
export function workbenchAddress(serverUrl: string, adminToken: string): string {
  return `${serverUrl}/#token=${encodeURIComponent(adminToken)}`;
}
