/** The workbench window: locked-down webPreferences, restored bounds, saved on move/resize/close. */
import { BrowserWindow, screen } from 'electron';
import type { ShellState } from './window-state.js';
import { APP_ORIGIN } from './trusted-sender.js';

/** Saved bounds can point at a monitor that is gone; then let the OS place the window. */
function onSomeDisplay(b: { x?: number; y?: number; width: number; height: number }): boolean {
  if (b.x === undefined || b.y === undefined) return false;
  const { x, y } = b;
  return screen
    .getAllDisplays()
    .some(({ workArea: a }) => x < a.x + a.width && x + b.width > a.x && y < a.y + a.height && y + b.height > a.y);
}

export function createWorkbenchWindow(preload: string, state: ShellState): BrowserWindow {
  const b = state.bounds();
  const placed = onSomeDisplay(b);
  const win = new BrowserWindow({
    x: placed ? b.x : undefined,
    y: placed ? b.y : undefined,
    width: b.width,
    height: b.height,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Cairn',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  if (b.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    if (win.isDestroyed()) return;
    const n = win.getNormalBounds();
    state.saveBounds({ x: n.x, y: n.y, width: n.width, height: n.height, maximized: win.isMaximized() });
  };
  // Debounced: resize fires continuously while dragging.
  const saveSoon = () => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 400);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('close', save);

  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
