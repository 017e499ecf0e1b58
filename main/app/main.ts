/**
 * The Electron shell's composition root. It decides where things live (paths), how secrets are
 * kept (safeStorage), how the engine runs (a supervised utilityProcess) and how the window is
 * locked down; everything below receives those as arguments.
 */
import { app, safeStorage, utilityProcess, type BrowserWindow } from 'electron';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setIndexingPaused, engineStatus } from './admin-client.js';
import { SafeStorageKeyFile } from './api-key-store.js';
import type { EngineAddress } from './channels.js';
import { importEngineKeyFile, serveKeyRequests } from './engine-key-bridge.js';
import { EngineSupervisor, type EngineChild } from './engine-supervisor.js';
import { denyPermissions, hardenWebContents } from './hardening.js';
import { registerIpc } from './ipc.js';
import { isOpenAtLogin, setOpenAtLogin, type LoginItemDeps } from './login-item.js';
import { launcherCommand, shellPaths } from './paths.js';
import { handleAppScheme, registerAppScheme } from './protocol.js';
import { CairnTray, type TrayModel } from './tray.js';
import { createWorkbenchWindow } from './window.js';
import { ShellState } from './window-state.js';

/**
 * The app executable is also Cairn's stdio launcher (`Cairn --mcp-stdio`), since the packaged
 * app cannot run a Node script (the runAsNode fuse is off) and ships no `cairn` command. That
 * process opens no window, takes no single-instance lock and loads no Chromium page: it bridges
 * stdio to the engine (main/engine/cli/serve.ts), and when none runs it starts the app itself in
 * the background (`--background`: tray and engine, no window), which then owns the engine.
 */
const STDIO_SWITCH = '--mcp-stdio';
const BACKGROUND_SWITCH = '--background';

function appLauncher(flag: string): string[] {
  return launcherCommand(flag, {
    packaged: app.isPackaged,
    execPath: process.execPath,
    appPath: app.getAppPath(),
    appImage: process.env.APPIMAGE,
  });
}

if (process.argv.includes(STDIO_SWITCH)) {
  void stdioBridge();
} else {
  registerAppScheme();
  if (!app.requestSingleInstanceLock()) {
    // Another Cairn owns the index and the port; it will show its window (second-instance below).
    app.quit();
  } else {
    void main();
  }
}

async function stdioBridge(): Promise<void> {
  app.dock?.hide();
  const paths = shellPaths(app.getAppPath(), app.getPath('userData'), process.resourcesPath, app.isPackaged);
  const home = process.env.CAIRN_HOME || paths.engineHome;
  process.env.CAIRN_BACKGROUND_LAUNCHER = JSON.stringify(appLauncher(BACKGROUND_SWITCH));
  const { serveStdioCommand } = await import('../engine/cli/stdio-command.js');
  let code = 1;
  try {
    code = await serveStdioCommand(home);
  } catch (err) {
    process.stderr.write(`cairn: ${(err as Error).message}\n`);
  }
  app.exit(code);
}

async function main(): Promise<void> {
  hardenWebContents();
  await app.whenReady();
  denyPermissions();

  const paths = shellPaths(app.getAppPath(), app.getPath('userData'), process.resourcesPath, app.isPackaged);
  const state = new ShellState(paths.shellState);
  const apiKeys = new SafeStorageKeyFile(paths.apiKeyFile, {
    isAvailable: () => safeStorage.isEncryptionAvailable(),
    // Linux only: without a keyring Electron falls back to basic_text, which only obfuscates.
    backend: () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os'),
    encrypt: (s) => safeStorage.encryptString(s),
    decrypt: (b) => safeStorage.decryptString(b),
  });

  importEngineKeyFile(apiKeys, join(paths.engineHome, 'mcp-api-key'));

  // A fresh admin token per launch: only this shell (and the window it hands it to) can administer.
  const adminToken = randomBytes(32).toString('base64url');
  const supervisor = new EngineSupervisor({
    entry: paths.engineEntry,
    args: ['serve'],
    adminToken,
    tokenFile: join(paths.engineHome, 'admin-token'),
    env: {
      CAIRN_HOME: paths.engineHome,
      CAIRN_MODELS_DIR: paths.models,
      LANCEDB_LOG: 'error',
      // The engine asks this process for the MCP key over its port (engine-key-bridge.ts), so the
      // key is kept by safeStorage, not in the engine's data folder. Not CAIRN_MCP_API_KEY: the
      // engine treats an env key as read-only, and the workbench could no longer rotate it.
      CAIRN_API_KEY_STORE: 'parent',
      // What client configs name as the stdio command: this app, not a Node script it cannot run.
      CAIRN_STDIO_LAUNCHER: JSON.stringify(appLauncher(STDIO_SWITCH)),
      // So the workbench can say when the key is only obfuscated (basic_text) or not kept.
      CAIRN_KEY_STORAGE: apiKeys.storage(),
    },
    spawn: (entry, args, env, execArgv): EngineChild => {
      const child = utilityProcess.fork(entry, args, { env, execArgv, stdio: 'pipe', serviceName: 'Cairn engine' });
      serveKeyRequests(child, apiKeys);
      return child as unknown as EngineChild;
    },
    log: (line) => console.log(`[engine] ${line}`),
  });

  handleAppScheme(paths.renderer, supervisor);

  let win: BrowserWindow | null = null;
  const openWorkbench = () => {
    if (!win || win.isDestroyed()) win = createWorkbenchWindow(paths.preload, state);
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };

  registerIpc({ engineAddress: () => supervisor.address() });

  const loginItem: LoginItemDeps = {
    platform: process.platform,
    getNative: () => app.getLoginItemSettings().openAtLogin,
    setNative: (openAtLogin) => app.setLoginItemSettings({ openAtLogin }),
    command: app.isPackaged ? [process.env.APPIMAGE || process.execPath] : [process.execPath, app.getAppPath()],
  };
  // The OS's word, not our last write: the user may have changed it in the system settings.
  const model: TrayModel = {
    engine: 'idle',
    folders: 0,
    indexing: false,
    paused: false,
    openAtLogin: isOpenAtLogin(loginItem),
  };
  let quitting = false;
  // A pause (from the tray or the workbench) outlives an engine restart: a new engine starts unpaused.
  let wantPaused = false;
  let reapplying = false;
  const tray = new CairnTray(paths.trayIcon, {
    openWorkbench,
    setPaused: (paused) => {
      wantPaused = paused;
      const addr = supervisor.address();
      if (addr) void setIndexingPaused(addr, paused).then(refreshTray, refreshTray);
    },
    setOpenAtLogin: (v) => {
      setOpenAtLogin(v, loginItem);
      state.setOpenAtLogin(v);
      model.openAtLogin = v;
      tray.update(model);
    },
    restartEngine: () => supervisor.restart(),
    quit: () => app.quit(),
  });

  async function refreshTray(): Promise<void> {
    model.engine = supervisor.current;
    const addr = supervisor.address();
    if (addr) {
      try {
        const s = await engineStatus(addr);
        model.folders = s.folders.length;
        model.indexing = s.jobs.some((j) => j.state === 'running' || j.state === 'queued');
        model.paused = s.paused;
        // Paused from the workbench counts too (but not the fresh engine's state before the re-pause lands).
        if (!reapplying) wantPaused = s.paused;
      } catch {
        // The engine is between states; the next tick will tell.
      }
    }
    tray.update(model);
  }

  supervisor.on('state', () => void refreshTray());
  supervisor.on('address', (addr: EngineAddress | null) => {
    if (!addr || !wantPaused) return;
    reapplying = true;
    void setIndexingPaused(addr, true)
      .catch(() => undefined)
      .finally(() => {
        reapplying = false;
        void refreshTray();
      });
  });
  const trayTimer = setInterval(() => void refreshTray(), 5000);
  supervisor.start();
  // Started in the background by a stdio client (or at login): tray and engine, no window.
  if (!process.argv.includes(BACKGROUND_SWITCH)) openWorkbench();

  app.on('second-instance', openWorkbench);
  app.on('activate', openWorkbench);
  // A tray app: closing the window keeps the engine (and the MCP server agents use) running.
  app.on('window-all-closed', () => {});
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quitting = true;
    clearInterval(trayTimer);
    // Stop the engine cleanly (it flushes the index) before the process goes away.
    void supervisor.stop().finally(() => {
      tray.destroy();
      app.quit();
    });
  });
}
