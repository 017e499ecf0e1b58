/**
 * Every path the shell uses, computed once from the app root and Electron's user-data folder and
 * passed down: nothing below the composition root asks Electron where things live.
 */
import { join } from 'node:path';

export interface ShellPaths {
  /** renderer/dist: served over app://workbench. */
  renderer: string;
  /** The compiled preload (CommonJS; sandboxed preloads cannot be ES modules). */
  preload: string;
  /** The engine's CLI entry, run in a utilityProcess. */
  engineEntry: string;
  /** CAIRN_HOME for the engine: index, settings, logs. */
  engineHome: string;
  /** Shell-only state: window bounds, the encrypted API key. */
  shellState: string;
  apiKeyFile: string;
  /** The built-in embedding model (extraResources in a package). */
  models: string;
  trayIcon: string;
}

export function shellPaths(appRoot: string, userData: string, resources: string, packaged: boolean): ShellPaths {
  const res = packaged ? resources : join(appRoot, 'resources');
  return {
    renderer: join(appRoot, 'renderer', 'dist'),
    preload: join(appRoot, 'dist', 'preload', 'index.js'),
    engineEntry: join(appRoot, 'dist', 'main', 'engine', 'cli', 'main.js'),
    engineHome: join(userData, 'engine'),
    shellState: join(userData, 'shell'),
    apiKeyFile: join(userData, 'shell', 'mcp-api-key.bin'),
    models: join(res, 'models'),
    trayIcon: join(packaged ? resources : join(appRoot, 'build'), 'tray.png'),
  };
}

/**
 * How to launch this app with a switch, absolute (clients launch with a minimal PATH): the
 * AppImage (not the executable inside its temporary mount) or the executable when packaged,
 * else the Electron binary with the app folder (a checkout running `electron .`).
 */
export function launcherCommand(
  flag: string,
  o: { packaged: boolean; execPath: string; appPath: string; appImage?: string },
): string[] {
  return o.packaged ? [o.appImage || o.execPath, flag] : [o.execPath, o.appPath, flag];
}
