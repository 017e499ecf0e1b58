import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The per-user data folder: the same one Electron's `app.getPath('userData')` gives the desktop
 * app (`Cairn` under the OS's app-data location), so the headless engine and the app share
 * settings and index. `CAIRN_HOME` overrides it (tests, portable installs).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.CAIRN_HOME) return env.CAIRN_HOME;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Cairn');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Cairn');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Cairn');
}

export interface DataPaths {
  root: string;
  config: string;
  index: string;
  models: string;
  lock: string;
  apiKey: string;
  /** The admin token of the running engine (0600), for the workbench address and the CLI. */
  adminToken: string;
}

export function dataPaths(root: string): DataPaths {
  return {
    root,
    config: join(root, 'config.json'),
    index: join(root, 'index'),
    models: join(root, 'models'),
    lock: join(root, 'engine.lock'),
    apiKey: join(root, 'mcp-api-key'),
    adminToken: join(root, 'admin-token'),
  };
}
