// The Electron shell's pure parts, run in plain Node (the Electron binary cannot run here):
// the app:// path guard, the IPC sender check, the external-link allow-list, the encrypted API
// key store, the preload/main channel lists agreeing, and the tray's menu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveInside } from '../../main/engine/kernel/scope.js';
import { isTrustedSenderUrl } from '../../main/app/trusted-sender.js';
import { isAllowedExternal } from '../../main/app/external-links.js';
import { SafeStorageKeyFile, type SecretCipher } from '../../main/app/api-key-store.js';
import { CHANNELS } from '../../main/app/channels.js';
import { trayMenu, trayStatus, type TrayActions, type TrayModel } from '../../main/app/tray-menu.js';
import type { MenuItemConstructorOptions } from 'electron';

test('app:// paths stay inside the renderer folder', () => {
  const root = '/opt/cairn/renderer/dist';
  assert.equal(resolveInside(root, '/'), join(root, 'index.html'));
  assert.equal(resolveInside(root, '/assets/index-1.js'), join(root, 'assets/index-1.js'));
  for (const bad of [
    '/../secret',
    '/assets/../../x',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..%2f..%2fetc',
    '/a%00b',
    '/%E0%A4%A',
  ])
    assert.equal(resolveInside(root, bad), null, bad);
  assert.equal(resolveInside(root, '/../dist-evil/x'), null);
});

test('only the workbench frame on app://workbench is a trusted IPC sender', () => {
  assert.equal(isTrustedSenderUrl('app://workbench/index.html'), true);
  for (const bad of [
    'https://evil.example/',
    'app://workbench.evil/',
    'app://other/index.html',
    'file:///etc/passwd',
    'http://127.0.0.1:58012/',
    '',
    null,
    undefined,
    'not a url',
  ])
    assert.equal(isTrustedSenderUrl(bad), false, String(bad));
});

test('external links: https on the allow-list only', () => {
  assert.equal(isAllowedExternal('https://modelcontextprotocol.io/docs'), true);
  for (const bad of [
    'http://modelcontextprotocol.io/',
    'https://modelcontextprotocol.io.evil.com/',
    'https://user@modelcontextprotocol.io/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://evil.example/',
  ])
    assert.equal(isAllowedExternal(bad), false, bad);
});

/** Stands in for Electron's safeStorage (OS keychain), which cannot run here. */
function fakeCipher(available: boolean): SecretCipher {
  return {
    isAvailable: () => available,
    encrypt: (s) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`),
    decrypt: (b) => Buffer.from(b.toString().replace(/^enc:/, ''), 'base64').toString(),
  };
}

test('the API key is stored encrypted (0600) and read back; cleared on null', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-key-'));
  const file = join(dir, 'k.bin');
  const store = new SafeStorageKeyFile(file, fakeCipher(true));
  store.set('a-long-secret-key-value-1');
  assert.ok(!readFileSync(file, 'utf8').includes('a-long-secret-key-value-1'));
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(new SafeStorageKeyFile(file, fakeCipher(true)).get(), 'a-long-secret-key-value-1');
  store.set(null);
  assert.equal(existsSync(file), false);
});

test('without OS encryption the key is kept in memory only, never written in clear', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-key-'));
  const file = join(dir, 'k.bin');
  const store = new SafeStorageKeyFile(file, fakeCipher(false));
  store.set('a-long-secret-key-value-1');
  assert.equal(store.get(), 'a-long-secret-key-value-1');
  assert.equal(existsSync(file), false);
  assert.equal(store.persistent(), false);
});

test('the preload invokes exactly the channels main/app handles', () => {
  const preload = readFileSync(new URL('../../preload/index.ts', import.meta.url), 'utf8');
  const used = [...preload.matchAll(/ipcRenderer\.invoke\('([^']+)'/g)].map((m) => m[1]).sort();
  assert.deepEqual(used, Object.values(CHANNELS).sort());
  assert.doesNotMatch(preload, /exposeInMainWorld\([^)]*ipcRenderer\s*\)/, 'ipcRenderer itself must not be exposed');
});

test('the tray menu: status line, pause/resume all indexing by the engine-wide state, start at login', () => {
  const calls: string[] = [];
  const actions: TrayActions = {
    openWorkbench: () => calls.push('open'),
    setPaused: (p) => calls.push(`paused=${p}`),
    setOpenAtLogin: (v) => calls.push(`login=${v}`),
    restartEngine: () => calls.push('restart'),
    quit: () => calls.push('quit'),
  };
  const model: TrayModel = { engine: 'running', folders: 2, indexing: true, paused: false, openAtLogin: false };
  const click = (items: MenuItemConstructorOptions[], label: string, checked = false) => {
    const item = items.find((i) => i.label === label);
    assert.ok(item?.click, `${label} in ${items.map((i) => i.label).join(' | ')}`);
    (item.click as (i: { checked: boolean }) => void)({ checked });
  };

  let menu = trayMenu(model, actions);
  assert.equal(menu[0].label, 'Engine running: 2 folders, indexing');
  click(menu, 'Pause indexing');
  menu = trayMenu({ ...model, paused: true }, actions);
  assert.equal(trayStatus({ ...model, paused: true }), 'Engine running: 2 folders, indexing paused');
  assert.equal(
    menu.some((i) => i.label === 'Pause indexing'),
    false,
  );
  click(menu, 'Resume indexing');
  click(menu, 'Start at login', true);
  assert.deepEqual(calls, ['paused=true', 'paused=false', 'login=true']);

  const stopped = trayMenu({ ...model, engine: 'failed' }, actions);
  assert.equal(stopped[0].label, 'Engine keeps failing');
  assert.equal(
    stopped.find((i) => i.label === 'Pause indexing')?.enabled,
    false,
    'no pausing an engine that is not running',
  );
  click(stopped, 'Restart engine');
  assert.equal(calls.at(-1), 'restart');
});

test('the app as its own stdio launcher: absolute, the AppImage when there is one, electron + app path in a checkout', async () => {
  const { launcherCommand } = await import('../../main/app/paths.js');
  assert.deepEqual(
    launcherCommand('--mcp-stdio', {
      packaged: true,
      execPath: '/opt/Cairn/cairn',
      appPath: '/opt/Cairn/resources/app.asar',
    }),
    ['/opt/Cairn/cairn', '--mcp-stdio'],
  );
  assert.deepEqual(
    launcherCommand('--mcp-stdio', {
      packaged: true,
      execPath: '/tmp/.mount_Cairn/cairn',
      appPath: '/x',
      appImage: '/home/u/Cairn.AppImage',
    }),
    ['/home/u/Cairn.AppImage', '--mcp-stdio'],
  );
  assert.deepEqual(
    launcherCommand('--background', {
      packaged: false,
      execPath: '/r/node_modules/electron/dist/electron',
      appPath: '/r',
    }),
    ['/r/node_modules/electron/dist/electron', '/r', '--background'],
  );
  // The switch is handled by main/app/main.ts before any window or single-instance lock.
  const main = readFileSync(new URL('../../main/app/main.ts', import.meta.url), 'utf8');
  assert.ok(main.indexOf('process.argv.includes(STDIO_SWITCH)') < main.indexOf('requestSingleInstanceLock'));
});
