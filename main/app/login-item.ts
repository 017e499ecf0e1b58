/**
 * Start at login. Electron's app.setLoginItemSettings works on macOS and Windows only; on Linux
 * it does nothing, so there Cairn writes an XDG autostart entry (~/.config/autostart/cairn.desktop),
 * which GNOME, KDE, Xfce and the other desktops read. No electron import: the shell passes
 * Electron's getter and setter in, so the Linux half runs and is tested in plain Node.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface LoginItemDeps {
  platform: NodeJS.Platform;
  /** app.getLoginItemSettings().openAtLogin (macOS, Windows). */
  getNative(): boolean;
  /** app.setLoginItemSettings({ openAtLogin }) (macOS, Windows). */
  setNative(openAtLogin: boolean): void;
  /** What to run: the AppImage itself when run from one (its mount point changes every launch). */
  command: string[];
  env?: NodeJS.ProcessEnv;
}

export function autostartFile(env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME?.trim() || join(homedir(), '.config');
  return join(config, 'autostart', 'cairn.desktop');
}

/** Quoting of the Desktop Entry spec's Exec key: reserved characters inside double quotes. */
function execArg(arg: string): string {
  return /^[A-Za-z0-9_./:=+,@%-]+$/.test(arg) ? arg : `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function desktopEntry(command: string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Cairn',
    'Comment=Local search engine for AI agents over your folders',
    `Exec=${command.map(execArg).join(' ').replace(/%/g, '%%')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function isOpenAtLogin(deps: LoginItemDeps): boolean {
  if (deps.platform !== 'linux') return deps.getNative();
  const file = autostartFile(deps.env);
  // Another program's entry of the same name, or one a user disabled by hand, is not ours to claim.
  return existsSync(file) && readFileSync(file, 'utf8').includes('X-GNOME-Autostart-enabled=true');
}

export function setOpenAtLogin(openAtLogin: boolean, deps: LoginItemDeps): void {
  if (deps.platform !== 'linux') return deps.setNative(openAtLogin);
  const file = autostartFile(deps.env);
  if (!openAtLogin) return rmSync(file, { force: true });
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, desktopEntry(deps.command));
}
