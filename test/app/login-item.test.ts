// Start at login. On Linux, Electron's login-item API does nothing, so Cairn writes an XDG
// autostart entry: tested for real in a temp XDG_CONFIG_HOME. On macOS and Windows the shell
// calls Electron's app.setLoginItemSettings, which cannot run here: a recording stand-in checks
// that the call goes there and nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  autostartFile,
  desktopEntry,
  isOpenAtLogin,
  setOpenAtLogin,
  type LoginItemDeps,
} from '../../main/app/login-item.js';

function deps(platform: NodeJS.Platform, calls: boolean[] = []): LoginItemDeps & { env: NodeJS.ProcessEnv } {
  return {
    platform,
    getNative: () => calls.at(-1) ?? false,
    setNative: (v) => void calls.push(v),
    command: ['/opt/My Apps/Cairn.AppImage', '--flag=$HOME'],
    env: { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cairn-xdg-')) },
  };
}

test('Linux: an XDG autostart entry is written, read back and removed', () => {
  const d = deps('linux');
  const file = autostartFile(d.env);
  assert.equal(file, join(d.env.XDG_CONFIG_HOME as string, 'autostart', 'cairn.desktop'));
  assert.equal(isOpenAtLogin(d), false);
  setOpenAtLogin(true, d);
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^\[Desktop Entry\]\nType=Application\nName=Cairn\n/);
  assert.match(
    text,
    /^Exec="\/opt\/My Apps\/Cairn\.AppImage" "--flag=\\\$HOME"$/m,
    'paths with spaces and $ are quoted as the spec says',
  );
  assert.equal(isOpenAtLogin(d), true);
  setOpenAtLogin(false, d);
  assert.equal(existsSync(file), false);
  assert.equal(isOpenAtLogin(d), false);
  setOpenAtLogin(false, d);

  // An entry the user disabled by hand is reported as off.
  writeFileSync(
    file,
    desktopEntry(['cairn']).replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'),
  );
  assert.equal(isOpenAtLogin(d), false);
  assert.match(desktopEntry(['/usr/bin/cairn', '50%']), /^Exec=\/usr\/bin\/cairn 50%%$/m, 'a literal % is doubled');
});

test("macOS and Windows: Electron's login-item setting, and no file", () => {
  for (const platform of ['darwin', 'win32'] as const) {
    const calls: boolean[] = [];
    const d = deps(platform, calls);
    setOpenAtLogin(true, d);
    assert.equal(isOpenAtLogin(d), true);
    setOpenAtLogin(false, d);
    assert.deepEqual(calls, [true, false]);
    assert.equal(existsSync(autostartFile(d.env)), false);
  }
});
