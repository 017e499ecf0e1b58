/** What a host (`cairn serve`, the desktop app) needs around `startHttpServer`: the admin token and the address to print. */
import { randomBytes } from 'node:crypto';
import { CairnError } from '../errors.js';

/** `CAIRN_ADMIN_TOKEN` (for scripts) or a fresh random token per launch. */
export function adminTokenFrom(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.CAIRN_ADMIN_TOKEN?.trim();
  if (given) {
    if (given.length < 16) throw new CairnError('config_invalid', 'CAIRN_ADMIN_TOKEN must be at least 16 characters.');
    return given;
  }
  return randomBytes(32).toString('base64url');
}

/**
 * The workbench address with the token in the fragment: a fragment never reaches a server or a
 * log, and the workbench moves it to sessionStorage and strips it from the address bar.
 */
export function workbenchAddress(serverUrl: string, adminToken: string): string {
  return `${serverUrl}/#token=${encodeURIComponent(adminToken)}`;
}
